pip install -U mlx-lm
# Start an OpenAI-compatible server on http://localhost:8080:
mlx_lm.server --model {{ id | sh }}
# Then, in another terminal, call it:
{% with port = 8080 %}{% include "local_apps/_openai_server.jinja" %}{% endwith %}
