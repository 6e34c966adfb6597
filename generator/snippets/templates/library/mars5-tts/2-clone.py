import librosa
import soundfile as sf
import torch

# MARS5 is published through torch.hub; the hub entry point downloads the weights of this model.
mars5, config_class = torch.hub.load("Camb-ai/mars5-tts", "mars5_english", trust_repo=True)

# A short (2-12 s) recording of the voice to clone, and what is said in it
reference = "reference.wav"  # path to your reference audio
reference_transcript = "This is what the speaker says in the reference clip."  # your transcript

wav, _ = librosa.load(reference, sr=mars5.sr, mono=True)
wav = torch.from_numpy(wav)

cfg = config_class(deep_clone=True, rep_penalty_window=100, top_k=100, temperature=0.7, freq_penalty=3)
ar_codes, output_audio = mars5.tts({{ (widget_text or "The quick brown fox jumps over the lazy dog.") | py }}, wav, reference_transcript, cfg=cfg)
sf.write("output.wav", output_audio.cpu().numpy(), mars5.sr)
