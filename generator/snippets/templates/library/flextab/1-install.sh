pip install git+https://github.com/SAP-samples/flextab huggingface_hub
