pip install -U tensorflow tensorflow-text huggingface_hub pillow numpy
