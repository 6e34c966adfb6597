pip install -U llama-cpp-python huggingface_hub
