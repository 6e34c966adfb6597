{#- The Python API documents the default bundle only (VictorButoi/flexray);
    other repositories go through the CLI's --model-id above. -#}
{% if id == "VictorButoi/flexray" %}
from fxr.inference import FleXraySegmenter

segmenter = FleXraySegmenter.from_pretrained()  # the flagship model of VictorButoi/flexray
prediction = segmenter.predict("./image.png", tta_samples=1)  # path to your X-ray

print(prediction.masks.shape)  # one channel per anatomical label
print(prediction.probabilities.max())
{% endif %}
