# Download a pre-built binary for your system from
# https://github.com/ggml-org/llama.cpp/releases and unpack it here.
{% with prefix = "./" %}{% include "local_apps/_llama_serve.jinja" %}{% endwith %}
