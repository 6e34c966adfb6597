pip install -U multimolecule
