winget install llama.cpp
{% include "local_apps/_llama_serve.jinja" %}
