{#- AudioSeal loads a generator and a detector from checkpoint files; the file
    names below are those of the facebook/audioseal repository. -#}
import torch
import torchaudio
from audioseal import AudioSeal
from huggingface_hub import hf_hub_download

generator_path = hf_hub_download(repo_id={{ id | py }}, filename="generator_base.pth")
detector_path = hf_hub_download(repo_id={{ id | py }}, filename="detector_base.pth")
generator = AudioSeal.load_generator(generator_path, nbits=16)
detector = AudioSeal.load_detector(detector_path, nbits=16)

audio, sample_rate = torchaudio.load("speech.wav")  # your file
audio = torchaudio.functional.resample(audio.mean(dim=0, keepdim=True), sample_rate, 16000)
wav = audio.unsqueeze(0)  # (batch, channels, samples), mono at 16 kHz

with torch.no_grad():
    watermarked = wav + generator.get_watermark(wav, 16000)
    probability, message = detector.detect_watermark(watermarked, 16000)

torchaudio.save("watermarked.wav", watermarked.squeeze(0), 16000)
print("Watermarked with probability", probability)
print("Hidden message bits:", message)
