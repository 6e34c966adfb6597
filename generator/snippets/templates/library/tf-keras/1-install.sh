pip install -U tf_keras "huggingface_hub<1.0"
