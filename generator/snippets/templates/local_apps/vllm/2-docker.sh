# Start an OpenAI-compatible server on http://localhost:8000 (Linux, NVIDIA GPU):
docker run --runtime nvidia --gpus all \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HF_TOKEN=$HF_TOKEN" \
    -p 8000:8000 \
    --ipc=host \
    vllm/vllm-openai:latest \
    --model {{ id | sh }}
# Then, in another terminal, call it:
{% with port = 8000 %}{% include "local_apps/_openai_server.jinja" %}{% endwith %}
