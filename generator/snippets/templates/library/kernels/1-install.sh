pip install -U kernels torch
