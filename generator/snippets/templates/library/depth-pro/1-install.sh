pip install git+https://github.com/apple/ml-depth-pro.git huggingface_hub
