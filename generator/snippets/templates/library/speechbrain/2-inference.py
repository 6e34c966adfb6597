{#- speechbrain: config.speechbrain.speechbrain_interface names the class in
    speechbrain.inference; each class has its own module and entry method.
    Only the classes listed here are accepted. -#}
{% set interfaces = {
    "EncoderClassifier": ["classifiers", "classify_file"],
    "AudioClassifier": ["classifiers", "classify_file"],
    "EncoderDecoderASR": ["ASR", "transcribe_file"],
    "EncoderASR": ["ASR", "transcribe_file"],
    "WhisperASR": ["ASR", "transcribe_file"],
    "SepformerSeparation": ["separation", "separate_file"],
    "SpectralMaskEnhancement": ["enhancement", "enhance_file"],
    "WaveformEnhancement": ["enhancement", "enhance_file"],
    "SpeakerRecognition": ["speaker", "verify_files"],
    "EndToEndSLU": ["SLU", "decode_file"],
    "EncoderDecoderS2UT": ["ST", "translate_file"],
    "Speech_Emotion_Diarization": ["diarization", "diarize_file"],
    "VAD": ["VAD", "get_speech_segments"],
    "GraphemeToPhoneme": ["text", "__call__"],
    "Tacotron2": ["TTS", "encode_text"],
    "FastSpeech2": ["TTS", "encode_text"],
    "HIFIGAN": ["vocoders", "decode_batch"],
} %}
{% set interface = config.speechbrain.speechbrain_interface %}
{% if not interface %}
# interface not specified in config.json
{% elif not (interface | ident) or interface not in interfaces %}
# interface in config.json invalid
{% else %}
{% set module = interfaces[interface][0] %}
{% set method = interfaces[interface][1] %}
{% if method in ["separate_file", "enhance_file"] %}
import torchaudio
{% elif method == "decode_batch" %}
import torch
{% endif %}
from speechbrain.inference.{{ module }} import {{ interface }}

model = {{ interface }}.from_hparams(source={{ id | py }})
{% if method == "verify_files" %}

first = "speaker1.wav"  # path to a recording of one speaker
second = "speaker2.wav"  # path to another recording
score, same_speaker = model.verify_files(first, second)
print(score, same_speaker)
{% elif method == "__call__" %}

print(model({{ (widget_text or "Speech synthesis turns text into sound.") | py }}))
{% elif method == "encode_text" and interface == "FastSpeech2" %}

mel_outputs, durations, pitch, energy = model.encode_text([{{ (widget_text or "Speech synthesis turns text into sound.") | py }}])
print(mel_outputs.shape)  # turn the spectrogram into audio with a vocoder such as HIFIGAN
{% elif method == "encode_text" %}

mel_output, mel_length, alignment = model.encode_text({{ (widget_text or "Speech synthesis turns text into sound.") | py }})
print(mel_output.shape)  # turn the spectrogram into audio with a vocoder such as HIFIGAN
{% elif method == "decode_batch" %}

mel_specs = torch.rand(2, 80, 298)  # replace with spectrograms from a text-to-speech model
waveforms = model.decode_batch(mel_specs)
print(waveforms.shape)
{% else %}

{{ inputs.audio_file }}
{% if method == "classify_file" %}
out_prob, score, index, label = model.classify_file(audio)
print(label)
{% elif method == "separate_file" %}
est_sources = model.separate_file(path=audio)
for i in range(est_sources.shape[-1]):
    torchaudio.save(f"source{i + 1}.wav", est_sources[:, :, i].detach().cpu(), model.hparams.sample_rate)
{% elif method == "enhance_file" %}
enhanced = model.enhance_file(audio)
torchaudio.save("enhanced.wav", enhanced.unsqueeze(0).cpu(), 16000)
{% elif method == "get_speech_segments" %}
boundaries = model.get_speech_segments(audio)
print(boundaries)
{% else %}
print(model.{{ method }}(audio))
{% endif %}
{% endif %}
{% endif %}
