pip install -U lightning-ir
