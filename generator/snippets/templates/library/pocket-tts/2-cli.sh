{% set text = widget_text or "Hello from Pocket TTS, running on the CPU." %}
pocket-tts generate --voice alba --text {{ text | sh }}
# Writes ./tts_output.wav
