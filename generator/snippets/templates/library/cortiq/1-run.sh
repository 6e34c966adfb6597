{#- cortiq is a Rust command-line runtime for .cmf files; it has no Python API. -#}
# The cortiq CLI (Rust) and the Hugging Face CLI
cargo install cortiq-cli
pip install -U huggingface_hub

# Download the .cmf file(s) of this model, then chat with it
hf download {{ id | sh }} --include '*.cmf' --local-dir cortiq-model
cortiq run cortiq-model/*.cmf --prompt {{ (widget_text or "What is the capital of France?") | sh }}

# Or serve it with an OpenAI-compatible API on port 8080
# cortiq serve cortiq-model/*.cmf --port 8080
