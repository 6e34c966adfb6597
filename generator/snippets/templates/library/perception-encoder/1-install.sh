git clone https://github.com/facebookresearch/perception_models.git
cd perception_models
pip install -e .
