pip install -U gliner
