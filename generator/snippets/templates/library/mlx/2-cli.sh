{% if pipeline_tag == "text-generation" %}
mlx_lm.generate --model {{ id | sh }} --prompt {{ (widget_text or "Write a haiku about the sea.") | sh }} --max-tokens 256
{% if conversational %}

# Interactive chat in the terminal
mlx_lm.chat --model {{ id | sh }}
{% endif %}
{% elif pipeline_tag == "image-text-to-text" %}
IMAGE="photo.jpg"  # path or URL of your image
mlx_vlm.generate --model {{ id | sh }} --image "$IMAGE" --prompt {{ (widget_text or "Describe this image.") | sh }} --max-tokens 256
{% elif pipeline_tag == "automatic-speech-recognition" %}
AUDIO="sample.flac"  # path to your audio file
mlx_whisper "$AUDIO" --model {{ id | sh }}
{% else %}
# Download the MLX weights of this repository
hf download {{ id | sh }} --local-dir ./mlx-model
{% endif %}
