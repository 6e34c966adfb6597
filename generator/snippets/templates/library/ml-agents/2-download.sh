# Download the trained agent (ONNX policy, checkpoints and training configuration)
mlagents-load-from-hf --repo-id={{ id | sh }} --local-dir=./downloads
