pip install -U "bm25s[full]" huggingface_hub
