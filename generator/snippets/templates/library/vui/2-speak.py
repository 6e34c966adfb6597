import torchaudio
from huggingface_hub import hf_hub_download
from vui.inference import render
from vui.model import Vui

# Vui.BASE is the base checkpoint; Vui.ABRAHAM (one speaker) and Vui.COHOST (two speakers) are the others
checkpoint = hf_hub_download(repo_id={{ id | py }}, filename=Vui.BASE)
model = Vui.from_pretrained_inf(checkpoint).cuda()

waveform = render(model, {{ (widget_text or "Hey, so I tried that new coffee place downtown. Honestly? It was pretty good.") | py }})
torchaudio.save("output.wav", waveform[0].cpu(), 22050)
