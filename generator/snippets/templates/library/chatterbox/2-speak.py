import torch
import torchaudio
{% if id == "ResembleAI/chatterbox" %}
from chatterbox.tts import ChatterboxTTS

device = "cuda" if torch.cuda.is_available() else "cpu"
model = ChatterboxTTS.from_pretrained(device=device)
{% else %}
from chatterbox.tts import ChatterboxTTS
from huggingface_hub import snapshot_download

device = "cuda" if torch.cuda.is_available() else "cpu"
model = ChatterboxTTS.from_local(snapshot_download(repo_id={{ id | py }}), device=device)
{% endif %}

text = {{ (widget_text or "Hello! This voice was generated with Chatterbox.") | py }}
wav = model.generate(text)
torchaudio.save("speech.wav", wav, model.sr)

# To clone a voice, pass a short reference recording:
# wav = model.generate(text, audio_prompt_path="reference.wav")
