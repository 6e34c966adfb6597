git clone https://github.com/ggml-org/llama.cpp.git
cd llama.cpp
cmake -B build
cmake --build build -j --target llama-server llama-cli
{% with prefix = "./build/bin/" %}{% include "local_apps/_llama_serve.jinja" %}{% endwith %}
