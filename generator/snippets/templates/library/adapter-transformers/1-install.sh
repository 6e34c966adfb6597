pip install -U adapters
