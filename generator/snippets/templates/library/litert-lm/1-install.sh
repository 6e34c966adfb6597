pip install -U litert-lm-api huggingface_hub
