curl https://localai.io/install.sh | sh
local-ai run {{ ("huggingface://" ~ id ~ "/" ~ file) | sh }}
