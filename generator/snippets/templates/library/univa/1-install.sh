# UniWorld runs from its repository (Python 3.10, CUDA GPU)
git clone https://github.com/PKU-YuanGroup/UniWorld-V1.git
cd UniWorld-V1
pip install -r requirements.txt
pip install flash_attn --no-build-isolation
