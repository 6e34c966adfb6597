# Start an OpenAI-compatible server on http://localhost:30000 (Linux, NVIDIA GPU):
docker run --gpus all \
    --shm-size 32g \
    -p 30000:30000 \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HF_TOKEN=$HF_TOKEN" \
    --ipc=host \
    lmsysorg/sglang:latest \
    python3 -m sglang.launch_server \
        --model-path {{ id | sh }} \
        --host 0.0.0.0 \
        --port 30000
# Then, in another terminal, call it:
{% with port = 30000 %}{% include "local_apps/_openai_server.jinja" %}{% endwith %}
