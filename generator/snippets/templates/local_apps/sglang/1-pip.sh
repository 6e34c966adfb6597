pip install sglang
# Start an OpenAI-compatible server on http://localhost:30000:
python3 -m sglang.launch_server \
    --model-path {{ id | sh }} \
    --host 0.0.0.0 \
    --port 30000
# Then, in another terminal, call it:
{% with port = 30000 %}{% include "local_apps/_openai_server.jinja" %}{% endwith %}
