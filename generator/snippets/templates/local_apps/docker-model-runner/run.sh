docker model run {{ ("hf.co/" ~ model_ref) | sh }}
{% if gguf %}
{{ llama.other_quants }}
{% endif %}
