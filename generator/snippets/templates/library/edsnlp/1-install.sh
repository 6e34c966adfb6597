pip install -U "edsnlp[ml]"
