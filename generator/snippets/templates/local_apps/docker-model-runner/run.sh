{% import "local_apps/_llama.jinja" as llama %}
docker model run {{ ("hf.co/" ~ model_ref) | sh }}
{% if gguf %}
{{ llama.other_quants() }}
{% endif %}
