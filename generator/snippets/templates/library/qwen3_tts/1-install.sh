pip install -U qwen-tts soundfile
