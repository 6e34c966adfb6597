pip install -U relik
