{% import "local_apps/_llama.jinja" as llama %}
brew install llama.cpp
{{ llama.serve_and_chat() }}
