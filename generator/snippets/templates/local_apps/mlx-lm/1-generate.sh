pip install -U mlx-lm
{% if conversational %}
# Chat in the terminal:
mlx_lm.chat --model {{ id | sh }}
{% else %}
mlx_lm.generate --model {{ id | sh }} --prompt {{ (widget_text or "Once upon a time,") | sh }}
{% endif %}
