{% set small = "small" in (id | lower) %}
import torch
import torchaudio
from stable_audio_tools import get_pretrained_model
from stable_audio_tools.inference.generation import generate_diffusion_cond

device = "cuda" if torch.cuda.is_available() else "cpu"

model, model_config = get_pretrained_model({{ id | py }})
model = model.to(device)

conditioning = [
    {
        "prompt": {{ (widget_text or "Warm lo-fi hip hop beat with soft piano chords, 90 BPM") | py }},
        "seconds_start": 0,
        "seconds_total": 10,
    }
]
audio = generate_diffusion_cond(
    model,
    conditioning=conditioning,
{% if small %}
    steps=8,
    cfg_scale=1.0,
    sampler_type="pingpong",
{% else %}
    steps=100,
    cfg_scale=7,
    sigma_min=0.3,
    sigma_max=500,
    sampler_type="dpmpp-3m-sde",
{% endif %}
    sample_size=model_config["sample_size"],
    device=device,
)

# (batch, channels, samples) -> (channels, samples), peak-normalized to 16-bit PCM
audio = torch.cat(list(audio), dim=-1).to(torch.float32)
audio = (audio / audio.abs().max()).clamp(-1, 1).mul(32767).to(torch.int16).cpu()
torchaudio.save("output.wav", audio, model_config["sample_rate"])
