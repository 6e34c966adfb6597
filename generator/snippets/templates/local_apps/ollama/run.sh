{% import "local_apps/_llama.jinja" as llama %}
ollama run {{ ("hf.co/" ~ model_ref) | sh }}
{{ llama.other_quants() }}
