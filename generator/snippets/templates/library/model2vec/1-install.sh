pip install -U model2vec
