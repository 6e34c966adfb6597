pip install -U chatterbox-tts
