pip install -U asteroid
