pip install -U terratorch
