pip install -U ChatTTS soundfile
