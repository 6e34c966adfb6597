pip install -U mlagents
