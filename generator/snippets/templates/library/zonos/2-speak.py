import torch
import torchaudio
from zonos.conditioning import make_cond_dict
from zonos.model import Zonos

device = "cuda" if torch.cuda.is_available() else "cpu"
model = Zonos.from_pretrained({{ id | py }}, device=device)

# Clone a voice from a short recording
speaker_audio = "speaker.wav"  # 10-30 seconds of the voice to clone
wav, sampling_rate = torchaudio.load(speaker_audio)
speaker = model.make_speaker_embedding(wav, sampling_rate)

cond_dict = make_cond_dict(text={{ (widget_text or "Hello from Zonos, a text to speech model with expressive voices.") | py }}, speaker=speaker, language="en-us")
conditioning = model.prepare_conditioning(cond_dict)
codes = model.generate(conditioning)

wavs = model.autoencoder.decode(codes).cpu()
torchaudio.save("output.wav", wavs[0], model.autoencoder.sampling_rate)
