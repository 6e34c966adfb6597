{% if pipeline_tag == "image-text-to-text" %}
pip install -U mlx-vlm
{% elif pipeline_tag == "automatic-speech-recognition" %}
pip install -U mlx-whisper
{% elif pipeline_tag == "text-generation" %}
pip install -U mlx-lm
{% else %}
pip install -U mlx huggingface_hub
{% endif %}
