pip install -U colipri
