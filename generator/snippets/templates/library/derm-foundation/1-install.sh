pip install -U tensorflow huggingface_hub pillow
