pip install git+https://github.com/TensorSpeech/TensorFlowTTS.git soundfile
