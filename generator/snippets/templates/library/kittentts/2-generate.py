import soundfile as sf
from kittentts import KittenTTS

model = KittenTTS({{ id | py }})
print(model.available_voices)

audio = model.generate({{ (widget_text or "Kitten TTS speaks this sentence without a GPU.") | py }}, voice=model.available_voices[0])
sf.write("output.wav", audio, 24000)
