pip install -U flair
