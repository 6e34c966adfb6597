pip install git+https://github.com/facebookresearch/sam2.git
