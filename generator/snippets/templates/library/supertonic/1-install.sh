pip install -U supertonic
