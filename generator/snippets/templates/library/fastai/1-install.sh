pip install -U fastai huggingface_hub
