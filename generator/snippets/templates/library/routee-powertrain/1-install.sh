pip install -U routee.powertrain huggingface_hub
