pip install -U audioseal torchaudio huggingface_hub
