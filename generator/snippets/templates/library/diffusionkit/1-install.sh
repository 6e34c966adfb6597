pip install -U diffusionkit
