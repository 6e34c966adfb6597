{% set name = id | split("/") | last %}
{% set builtin = id in ["Supertone/supertonic", "Supertone/supertonic-2", "Supertone/supertonic-3"] %}
{% if builtin %}
from supertonic import TTS

# Downloads the ONNX models and voice styles on first use
tts = TTS(model={{ name | py }}, auto_download=True)
{% else %}
from huggingface_hub import snapshot_download
from supertonic import TTS

tts = TTS(model_dir=snapshot_download(repo_id={{ id | py }}), auto_download=False)
{% endif %}

style = tts.get_voice_style(voice_name="F1")  # preset voices: F1-F5, M1-M5
wav, duration = tts.synthesize(
    text={{ (widget_text or "Supertonic speaks quickly and runs entirely on your own device.") | py }},
    voice_style=style,
)
tts.save_audio(wav, "output.wav")
print(f"{duration[0]:.2f} seconds of audio")
