pip install -U setfit
