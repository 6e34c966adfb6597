npx -y node-llama-cpp chat \
    --model {{ ("hf:" ~ id ~ "/" ~ file) | sh }} \
    --prompt {{ (widget_text or "Hi there!") | sh }}
