pip install -U fasttext huggingface_hub
