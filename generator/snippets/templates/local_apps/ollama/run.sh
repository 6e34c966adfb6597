ollama run {{ ("hf.co/" ~ model_ref) | sh }}
{{ llama.other_quants }}
