pip install fairseq soundfile huggingface_hub
