{% set arch = id | split("/") | last | replace("-mlxim", "") %}
import mlx.core as mx
from huggingface_hub import hf_hub_download
from mlxim.io import read_rgb
from mlxim.model import create_model
from mlxim.transform import ImageNetTransform

# Architecture name as registered in mlx-image, with the weights of this repository
weights = hf_hub_download({{ id | py }}, "model.safetensors")
model = create_model({{ arch | py }}, weights=weights)
model.eval()

{{ inputs.image_file }}
transform = ImageNetTransform(train=False, img_size=224)
x = mx.expand_dims(transform(read_rgb(image)), 0)

logits = model(x)
print(mx.argmax(logits, axis=-1))
