{#- `device_map="auto"` (the direct example) needs accelerate. -#}
pip install -U transformers torch{% if transformers_info.auto_model | ident %} accelerate{% endif %}
