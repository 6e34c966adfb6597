pip install -U nobg
