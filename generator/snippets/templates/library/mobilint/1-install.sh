# Runs on a machine with a Mobilint NPU (ARIES) and its runtime installed
{% if pipeline_tag in ["image-classification", "object-detection", "image-segmentation", "keypoint-detection"] %}
pip install -U mblt-model-zoo
{% else %}
pip install -U "mblt-model-zoo[transformers]"
{% endif %}
