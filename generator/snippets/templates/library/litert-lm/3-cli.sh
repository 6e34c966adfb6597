{% set prompt = widget_text or "What is the capital of France?" %}
uv tool install litert-lm

MODEL_FILE="model.litertlm"  # a .litertlm file listed in this repository
litert-lm run \
    --from-huggingface-repo={{ id | sh }} \
    "$MODEL_FILE" \
    --prompt={{ prompt | sh }}
