pip install -U ultralytics huggingface_hub
