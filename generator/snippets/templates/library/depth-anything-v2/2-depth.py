{#- The checkpoint file and the network width depend on the encoder size, which
    the repository names carry (Small, Base, Large, Giant). -#}
{% set name = id | lower %}
{% if "small" in name %}
{% set encoder, features, channels = "vits", 64, "[48, 96, 192, 384]" %}
{% elif "base" in name %}
{% set encoder, features, channels = "vitb", 128, "[96, 192, 384, 768]" %}
{% elif "giant" in name %}
{% set encoder, features, channels = "vitg", 384, "[1536, 1536, 1536, 1536]" %}
{% else %}
{% set encoder, features, channels = "vitl", 256, "[256, 512, 1024, 1024]" %}
{% endif %}
import cv2
import torch
from depth_anything_v2.dpt import DepthAnythingV2
from huggingface_hub import hf_hub_download

checkpoint = hf_hub_download(repo_id={{ id | py }}, filename="depth_anything_v2_{{ encoder }}.pth")
model = DepthAnythingV2(encoder="{{ encoder }}", features={{ features }}, out_channels={{ channels }})
model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
model.eval()

image = cv2.imread("photo.jpg")  # path to your image (BGR)
depth = model.infer_image(image)  # H x W array of relative depth
print(depth.shape, depth.min(), depth.max())
