{% import "shared/inputs.jinja" as inputs %}
import soundfile as sf
from kittentts import KittenTTS

model = KittenTTS({{ id | py }})
print(model.available_voices)

audio = model.generate({{ inputs.text("Kitten TTS speaks this sentence without a GPU.") }}, voice=model.available_voices[0])
sf.write("output.wav", audio, 24000)
