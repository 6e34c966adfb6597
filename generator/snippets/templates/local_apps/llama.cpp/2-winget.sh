{% import "local_apps/_llama.jinja" as llama %}
winget install llama.cpp
{{ llama.serve_and_chat() }}
