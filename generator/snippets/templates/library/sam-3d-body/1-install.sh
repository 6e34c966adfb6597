# SAM 3D Body is used from its repository (Python 3.12 and PyTorch 2.5 are the tested setup)
git clone https://github.com/facebookresearch/sam-3d-body.git
cd sam-3d-body
pip install pytorch-lightning smplx pyrender opencv-python yacs scikit-image einops timm dill pandas rich hydra-core pyrootutils webdataset networkx==3.2.1 roma joblib loguru optree huggingface_hub
pip install 'git+https://github.com/facebookresearch/detectron2.git@a1ce2f9'

# The checkpoints are gated: accept the license on the model page, then log in
hf auth login
