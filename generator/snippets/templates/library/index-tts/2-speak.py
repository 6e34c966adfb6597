{#- IndexTTS clones the voice of a reference recording. IndexTTS-2 has its own
    class (indextts.infer_v2); the first versions use indextts.infer. -#}
import os

from huggingface_hub import snapshot_download
{% if "indextts-2" in id | lower %}
from indextts.infer_v2 import IndexTTS2

model_dir = snapshot_download(repo_id={{ id | py }})
tts = IndexTTS2(cfg_path=os.path.join(model_dir, "config.yaml"), model_dir=model_dir, use_fp16=False)

voice = "reference.wav"  # your file: a few seconds of the voice to clone
text = {{ (widget_text or "Hello, this voice was cloned with IndexTTS.") | py }}
tts.infer(spk_audio_prompt=voice, text=text, output_path="speech.wav", verbose=True)
{% else %}
from indextts.infer import IndexTTS

model_dir = snapshot_download(repo_id={{ id | py }})
tts = IndexTTS(model_dir=model_dir, cfg_path=os.path.join(model_dir, "config.yaml"))

voice = "reference.wav"  # your file: a few seconds of the voice to clone
text = {{ (widget_text or "Hello, this voice was cloned with IndexTTS.") | py }}
tts.infer(voice, text, "speech.wav")
{% endif %}
