pip install -U pruna
