{% set name = id | split("/") | last %}
# Run inside the perception_models folder
import torch
from PIL import Image

import core.vision_encoder.pe as pe
import core.vision_encoder.transforms as transforms

device = "cuda" if torch.cuda.is_available() else "cpu"
{% if name is startingwith("PE-Core") %}

# Image and text towers; the config name matches this repository
model = pe.CLIP.from_config({{ name | py }}, pretrained=True).to(device).eval()
preprocess = transforms.get_image_transform(model.image_size)
tokenizer = transforms.get_text_tokenizer(model.context_length)

{{ inputs.image_file }}
labels = ["a diagram", "a dog", "a cat"]
pixels = preprocess(Image.open(image)).unsqueeze(0).to(device)
text = tokenizer(labels).to(device)

with torch.no_grad():
    image_features, text_features, logit_scale = model(pixels, text)
    probs = (logit_scale * image_features @ text_features.T).softmax(dim=-1)
print(dict(zip(labels, probs[0].tolist())))
{% else %}

# Vision tower only; the config name matches this repository
model = pe.VisionTransformer.from_config({{ name | py }}, pretrained=True).to(device).eval()
preprocess = transforms.get_image_transform(model.image_size)

{{ inputs.image_file }}
pixels = preprocess(Image.open(image)).unsqueeze(0).to(device)
with torch.no_grad():
    features = model(pixels)
print(features.shape)
{% endif %}
