{% set name = id | split("/") | last %}
{% set backbones = {"Prithvi-EO-2.0-300M": "prithvi_eo_v2_300", "Prithvi-EO-2.0-300M-TL": "prithvi_eo_v2_300_tl", "Prithvi-EO-2.0-600M": "prithvi_eo_v2_600", "Prithvi-EO-2.0-600M-TL": "prithvi_eo_v2_600_tl", "Prithvi-EO-2.0-tiny-TL": "prithvi_eo_v2_tiny_tl", "Prithvi-EO-2.0-100M-TL": "prithvi_eo_v2_100_tl"} %}
{% set backbone = backbones[name] %}
{% if backbone %}
import torch
from terratorch.registry import BACKBONE_REGISTRY

# This repository holds a pretrained encoder; TerraTorch registers it as {{ backbone | comment }}
model = BACKBONE_REGISTRY.build({{ backbone | py }}, pretrained=True)
model.eval()

# One 224x224 tile with the six HLS bands (blue, green, red, narrow NIR, SWIR 1, SWIR 2)
x = torch.randn(1, 6, 224, 224)
with torch.no_grad():
    features = model(x)
print([f.shape for f in features])
{% else %}
import glob
import os

from huggingface_hub import snapshot_download
from terratorch.cli_tools import LightningInferenceModel

# A fine-tuned task model: its TerraTorch config.yaml and checkpoint are in the repository
model_dir = snapshot_download(repo_id={{ id | py }})
checkpoint = sorted(glob.glob(os.path.join(model_dir, "*.pt")) + glob.glob(os.path.join(model_dir, "*.ckpt")))[0]
model = LightningInferenceModel.from_config(os.path.join(model_dir, "config.yaml"), checkpoint)

# Predict every image in a folder (GeoTIFFs with the bands listed in config.yaml)
data_dir = "my_tiles/"  # your folder of input images
predictions, files = model.inference_on_dir(data_dir)
for path, prediction in zip(files, predictions):
    print(path, prediction.shape)
{% endif %}
