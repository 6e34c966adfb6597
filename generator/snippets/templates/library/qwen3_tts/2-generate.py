{% if "Tokenizer" in id %}
import soundfile as sf
from qwen_tts import Qwen3TTSTokenizer

tokenizer = Qwen3TTSTokenizer.from_pretrained({{ id | py }})

{{ inputs.audio_file }}
codes = tokenizer.encode(audio)
wavs, sr = tokenizer.decode(codes)
sf.write("reconstructed.wav", wavs[0], sr)
{% else %}
import soundfile as sf
import torch
from qwen_tts import Qwen3TTSModel

# The device (CUDA, Apple MPS or CPU) is picked automatically
model = Qwen3TTSModel.from_pretrained({{ id | py }}, dtype=torch.bfloat16)

text = {{ (widget_text or "Good morning! The weather is lovely today, let's go for a walk.") | py }}
{% if "VoiceDesign" in id %}
wavs, sr = model.generate_voice_design(
    text=text,
    language="English",
    instruct="A calm, warm female voice with a slow, friendly pace.",
)
{% elif "CustomVoice" in id %}
# See model.get_supported_speakers() and model.get_supported_languages()
wavs, sr = model.generate_custom_voice(
    text=text,
    language="English",
    speaker="Ryan",
)
{% else %}
# Voice cloning: a short recording of the voice and its transcript
ref_audio = "reference.wav"  # your recording
ref_text = "The exact words spoken in the reference recording."  # its transcript
wavs, sr = model.generate_voice_clone(
    text=text,
    language="English",
    ref_audio=ref_audio,
    ref_text=ref_text,
)
{% endif %}
sf.write("output.wav", wavs[0], sr)
{% endif %}
