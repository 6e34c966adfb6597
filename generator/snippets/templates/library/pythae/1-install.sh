pip install -U pythae
