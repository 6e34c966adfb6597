pip install allennlp allennlp-models
