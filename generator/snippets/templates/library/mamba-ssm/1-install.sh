# Needs an NVIDIA GPU and a CUDA build of PyTorch
pip install -U mamba-ssm causal-conv1d --no-build-isolation
