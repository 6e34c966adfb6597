{#- timm: models load from the Hub with the hf-hub: prefix. -#}
{% if pipeline_tag == "image-classification" %}
import torch
from PIL import Image
from timm import create_model
from timm.data import create_transform, resolve_model_data_config

model = create_model({{ ("hf-hub:" ~ id) | py }}, pretrained=True)
model.eval()

# preprocessing that matches the model's training
data_config = resolve_model_data_config(model)
transform = create_transform(**data_config, is_training=False)

image = Image.open("photo.jpg").convert("RGB")  # path to your image
with torch.no_grad():
    logits = model(transform(image).unsqueeze(0))
probabilities, class_ids = logits.softmax(dim=-1).topk(5)
print(probabilities, class_ids)
{% else %}
import timm

model = timm.create_model({{ ("hf-hub:" ~ id) | py }}, pretrained=True)
model.eval()
{% endif %}
