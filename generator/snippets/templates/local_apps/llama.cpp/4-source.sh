{% import "local_apps/_llama.jinja" as llama %}
git clone https://github.com/ggml-org/llama.cpp.git
cd llama.cpp
cmake -B build
cmake --build build -j --target llama-server llama-cli
{{ llama.serve_and_chat("./build/bin/") }}
