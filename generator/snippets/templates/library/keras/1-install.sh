pip install -U keras huggingface_hub
