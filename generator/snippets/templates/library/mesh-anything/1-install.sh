{% set v2 = "v2" in (id | lower) %}
git clone https://github.com/buaacyw/{{ "MeshAnythingV2" if v2 else "MeshAnything" }}.git
cd {{ "MeshAnythingV2" if v2 else "MeshAnything" }}
pip install -r requirements.txt
pip install flash-attn --no-build-isolation
