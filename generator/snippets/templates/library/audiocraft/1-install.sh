pip install -U audiocraft
