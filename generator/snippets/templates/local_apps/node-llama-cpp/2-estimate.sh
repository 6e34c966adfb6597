npx -y node-llama-cpp inspect estimate {{ ("hf:" ~ id ~ "/" ~ file) | sh }}
