pip install -U pocket-tts scipy
