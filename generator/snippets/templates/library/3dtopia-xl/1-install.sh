# 3DTopia-XL runs from its repository, in a conda environment
git clone https://github.com/3DTopia/3DTopia-XL.git
cd 3DTopia-XL
conda create -n primx python=3.9 -y
conda activate primx
conda install -y pytorch==2.1.2 torchvision==0.16.2 torchaudio==2.1.2 pytorch-cuda=11.8 -c pytorch -c nvidia
conda install -y xformers::xformers
pip install -r requirements.txt
bash install.sh  # compiles the third-party libraries
