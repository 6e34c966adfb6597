{% set kind = config.type %}
{% if kind == "smolvla" %}
pip install -U "lerobot[smolvla]"
{% elif kind in ["pi0", "pi05"] %}
pip install -U "lerobot[pi]"
{% else %}
pip install -U lerobot
{% endif %}
