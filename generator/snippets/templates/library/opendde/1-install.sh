uv venv --python 3.11
# CPU build; on Linux x86_64 with CUDA 12.6 use: --torch-backend cu126 "opendde[gpu]"
uv pip install --python .venv --torch-backend cpu opendde
uv run --no-project --python .venv opendde doctor
