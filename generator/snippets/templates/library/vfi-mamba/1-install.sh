# VFIMamba runs from its repository (tested with CUDA 11.7, torch 1.13.1 and Python 3.10)
git clone https://github.com/MCG-NJU/VFIMamba.git
cd VFIMamba
pip install torch==1.13.1 causal_conv1d==1.0.0 mamba_ssm==1.0.1 scikit-image==0.19.2 numpy opencv-python timm tqdm tensorboard imageio
