pip install -U gliner2
