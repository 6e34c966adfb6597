pip install -U torch torchaudio librosa vocos encodec safetensors regex soundfile
