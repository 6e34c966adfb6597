# Serve this repository; the hf: spec downloads on first use
MODEL_ID={{ id | sh }}
FILE_MATCH="Q5K"  # part of the .gguf file name to serve from this repository

MEMRA_COMPAT=openai MEMRA_MODELS="local=hf:${MODEL_ID}:${FILE_MATCH}" memra-server &

# Once the server is up on 127.0.0.1:8080:
curl -sS http://127.0.0.1:8080/v1/chat/completions \
    -H 'Content-Type: application/json' \
    -d '{"model": "local", "max_tokens": 128, "messages": [{"role": "user", "content": "Explain KV caching in one sentence."}]}'
