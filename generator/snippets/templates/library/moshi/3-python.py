import sphn
import torch
from moshi.models import LMGen, loaders

device = "cuda" if torch.cuda.is_available() else "cpu"

checkpoint = loaders.CheckpointInfo.from_hf_repo({{ id | py }})
mimi = checkpoint.get_mimi(device=device)  # streaming audio codec, 24 kHz
lm = checkpoint.get_moshi(device=device)
lm_gen = LMGen(lm, temp=0.8, temp_text=0.7)

audio = "question.wav"  # path to your audio file
pcm, _ = sphn.read(audio, sample_rate=mimi.sample_rate)
wav = torch.from_numpy(pcm[:1])[None].to(device)  # [batch, channels, samples]

with torch.no_grad():
    codes = mimi.encode(wav)  # [batch, codebooks, frames] at 12.5 frames per second

chunks = []
with torch.no_grad(), lm_gen.streaming(1), mimi.streaming(1):
    for i in range(codes.shape[-1]):
        tokens = lm_gen.step(codes[:, :, i:i + 1])
        if tokens is not None:
            chunks.append(mimi.decode(tokens[:, 1:]))

reply = torch.cat(chunks, dim=-1)[0].cpu().numpy()
sphn.write_wav("reply.wav", reply, mimi.sample_rate)
