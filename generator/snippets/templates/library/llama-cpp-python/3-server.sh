# OpenAI-compatible server on http://localhost:8000
pip install -U "llama-cpp-python[server]"
python -m llama_cpp.server \
    --hf_model_repo_id {{ id | sh }} \
    --model '*Q4_K_M.gguf'
