from pathlib import Path

import litert_lm
from huggingface_hub import snapshot_download

# Download the .litertlm bundle(s) of this repository
local_dir = snapshot_download({{ id | py }}, allow_patterns=["*.litertlm"])
model_path = str(sorted(Path(local_dir).glob("*.litertlm"))[0])

with litert_lm.Engine(model_path) as engine:
    with engine.create_conversation() as conversation:
        reply = conversation.send_message({{ (widget_text or "What is the capital of France?") | py }})
        print(reply["content"][0]["text"])
