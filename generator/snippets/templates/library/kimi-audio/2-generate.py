# Run from the Kimi-Audio folder.
import soundfile as sf
from kimia_infer.api.kimia import KimiAudio

model = KimiAudio(model_path={{ id | py }}, load_detokenizer=True)

sampling_params = {
    "audio_temperature": 0.8,
    "audio_top_k": 10,
    "text_temperature": 0.0,
    "text_top_k": 5,
    "audio_repetition_penalty": 1.0,
    "audio_repetition_window_size": 64,
    "text_repetition_penalty": 1.0,
    "text_repetition_window_size": 16,
}

{{ inputs.audio_file }}

# Audio in, text out (speech recognition)
messages = [
    {"role": "user", "message_type": "text", "content": "Write down what is said in this recording."},
    {"role": "user", "message_type": "audio", "content": audio},
]
_, text = model.generate(messages, **sampling_params, output_type="text")
print(text)

# Audio in, spoken answer out
messages = [{"role": "user", "message_type": "audio", "content": audio}]
wav, text = model.generate(messages, **sampling_params, output_type="both")
sf.write("answer.wav", wav.detach().cpu().view(-1).numpy(), 24000)
print(text)
