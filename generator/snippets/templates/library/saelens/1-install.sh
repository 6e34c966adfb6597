pip install -U sae-lens
