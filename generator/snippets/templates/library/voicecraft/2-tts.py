# Run inside the VoiceCraft folder
import argparse

import torch
import torchaudio
from data.tokenizer import AudioTokenizer, TextTokenizer
from huggingface_hub import hf_hub_download
from inference_tts_scale import inference_one_sample
from models import voicecraft

device = "cuda" if torch.cuda.is_available() else "cpu"

model = voicecraft.VoiceCraft.from_pretrained({{ id | py }})
model.to(device)
config = argparse.Namespace(**vars(model.args))

# The Encodec codec that turns audio into the tokens VoiceCraft models
encodec_path = hf_hub_download(repo_id="pyp1/VoiceCraft", filename="encodec_4cb2048_giga.th")
audio_tokenizer = AudioTokenizer(signature=encodec_path, device=device)
text_tokenizer = TextTokenizer(backend="espeak")

# A recording of the voice to clone: the first seconds of it are used as the prompt
prompt_audio = "prompt.wav"  # your recording
prompt_seconds = 3.0  # length of the prompt; end it between two words
prompt_transcript = "The words spoken in those seconds."  # transcript of the prompt
target_transcript = prompt_transcript + " " + {{ (widget_text or "and this sentence continues in the same voice.") | py }}

info = torchaudio.info(prompt_audio)
decode_config = {
    "top_k": 0,
    "top_p": 0.9,
    "temperature": 1,
    "stop_repetition": 3,
    "kvcache": 1,
    "codec_audio_sr": 16000,
    "codec_sr": 50,
    "silence_tokens": [1388, 1898, 131],
    "sample_batch_size": 3,
}
concatenated, generated = inference_one_sample(
    model,
    config,
    model.args.phn2num,
    text_tokenizer,
    audio_tokenizer,
    prompt_audio,
    target_transcript,
    device,
    decode_config,
    int(prompt_seconds * info.sample_rate),
)
torchaudio.save("generated.wav", generated[0].cpu(), 16000)
