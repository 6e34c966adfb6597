{% set v2 = "v2" in (id | lower) %}
{% if v2 %}
# Run inside the MeshAnythingV2 folder
from MeshAnything.models.meshanything_v2 import MeshAnythingV2

model = MeshAnythingV2.from_pretrained({{ id | py }})
model = model.cuda().eval()
print(sum(p.numel() for p in model.parameters()))
{% endif %}
