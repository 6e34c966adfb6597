pip install vllm
# Start an OpenAI-compatible server on http://localhost:8000:
vllm serve {{ id | sh }}
# Then, in another terminal, call it:
{% with port = 8000 %}{% include "local_apps/_openai_server.jinja" %}{% endwith %}
