# Start an OpenAI-compatible server on http://localhost:8080 (Linux, NVIDIA GPU):
docker run --gpus all \
    --shm-size 1g \
    -v ~/.cache/huggingface:/data \
    -e "HF_TOKEN=$HF_TOKEN" \
    -p 8080:80 \
    ghcr.io/huggingface/text-generation-inference:latest \
    --model-id {{ id | sh }}
# Then, in another terminal, call it:
{% with port = 8080 %}{% include "local_apps/_openai_server.jinja" %}{% endwith %}
