# Linux with an NVIDIA GPU and Python 3.12
pip install "gaussianformer @ git+https://github.com/SVLwoof/gaussianformer"
pip install https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/flash_attn-2.8.3+cu12torch2.9cxx11abiTRUE-cp312-cp312-linux_x86_64.whl
