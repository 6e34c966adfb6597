pip install -U keras-hub
