{% set size = "small" if "small" in (id | lower) else "base" %}
import dataclasses

import torch
from swarmformer.config.model_configs import MODEL_CONFIGS
from swarmformer.utils.inference import get_device, load_trained_model

# Architecture of the {{ size | comment }} model, with the weights of this repository
config = dataclasses.replace(MODEL_CONFIGS[{{ size | py }}], hf_model_id={{ id | py }})
device = get_device()

# Builds the model, loads model.safetensors and prepares the tokenized IMDb test set
model, test_dataset = load_trained_model(config, device)
model.eval()

tokens, label = test_dataset[0]
with torch.no_grad():
    logits = model(tokens.unsqueeze(0).to(device))
prediction = logits.argmax(dim=-1).item()
print("predicted:", "positive" if prediction == 1 else "negative", "| true:", "positive" if int(label) == 1 else "negative")
