{{ llama.start_server }}
# Then, in another terminal, install OpenClaw and register the server as its default model:
npm install -g openclaw@latest
openclaw onboard --non-interactive --mode local \
    --auth-choice custom-api-key \
    --custom-base-url http://127.0.0.1:8080/v1 \
    --custom-model-id {{ model_ref | sh }} \
    --custom-provider-id llama-cpp \
    --custom-compatibility openai \
    --custom-text-input \
    --accept-risk \
    --skip-health
openclaw agent --local --agent main --message {{ (widget_text or "Hello!") | sh }}
