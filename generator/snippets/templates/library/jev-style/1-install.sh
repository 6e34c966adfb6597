{% if "mlx" in tags %}
# Apple silicon (MLX builds)
pip install -U "jev-style[mlx]"
{% else %}
# PyTorch on CUDA or CPU
pip install -U "jev-style[torch]"
{% endif %}
{% if "gguf" in tags %}
# GGUF builds also need the release's llama.cpp scorer (jev-score or jev-score-v2) on your PATH.
{% endif %}
