pip install -U anemoi-inference anemoi-models
