{% import "local_apps/_llama.jinja" as llama %}
# Download a pre-built binary for your system from
# https://github.com/ggml-org/llama.cpp/releases and unpack it here.
{{ llama.serve_and_chat("./") }}
