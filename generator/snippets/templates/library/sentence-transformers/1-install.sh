pip install -U sentence-transformers
