{#- Ultralytics YOLO. The class name carries the version from a `yolov<N>`
    tag. ultralytics' YOLO class has no from_pretrained (it is not a Hub
    mixin), so the weights file is downloaded with hf_hub_download. -#}
{% set version = tags | digits_after("yolov") %}
{% set cls = "YOLOv" ~ version if version else "YOLOvXX" %}
{% if not version %}
# This model has no YOLO version tag (such as yolov8): replace XX in YOLOvXX
# below with the YOLO version it uses.
{% endif %}
from huggingface_hub import hf_hub_download
from ultralytics import YOLO as {{ cls }}

weights_file = {{ (("yolov" ~ version ~ "n.pt") if version else "best.pt") | py }}  # a .pt weights file of this repository
model = {{ cls }}(hf_hub_download(repo_id={{ id | py }}, filename=weights_file))

{{ inputs.image_file }}
results = model(image)
results[0].show()
