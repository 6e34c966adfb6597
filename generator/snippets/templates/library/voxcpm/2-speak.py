import soundfile as sf
from voxcpm import VoxCPM

model = VoxCPM.from_pretrained({{ id | py }}, load_denoiser=False)

wav = model.generate(
    text={{ (widget_text or "VoxCPM turns text into expressive, natural speech.") | py }},
    cfg_value=2.0,
    inference_timesteps=10,
)
sf.write("output.wav", wav, model.tts_model.sample_rate)

# To clone a voice, also pass a recording and its transcript:
# wav = model.generate(text="...", prompt_wav_path="voice.wav", prompt_text="What the recording says.")
