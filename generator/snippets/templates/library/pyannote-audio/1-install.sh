pip install -U pyannote.audio
