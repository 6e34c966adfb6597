pip install -U outetts
