{#- audiocraft: the model family comes from the tags. -#}
{% if "magnet" in tags %}
{% set family = "MAGNeT" %}
{% set default = "80s electronic track with driving synths and drums" %}
{% elif "musicgen" in tags %}
{% set family = "MusicGen" %}
{% set default = "lo-fi hip hop beat with mellow piano" %}
{% elif "audiogen" in tags %}
{% set family = "AudioGen" %}
{% set default = "dog barking in the distance while rain falls" %}
{% endif %}
{% if not family %}
# Type of model unknown
{% else %}
from audiocraft.data.audio import audio_write
from audiocraft.models import {{ family }}

model = {{ family }}.get_pretrained({{ id | py }})
{% if family != "MAGNeT" %}
model.set_generation_params(duration=8)  # seconds of audio
{% endif %}

descriptions = [{{ (widget_text or default) | py }}]
wav = model.generate(descriptions)
for idx, one_wav in enumerate(wav):
    # writes output_0.wav, ... with loudness normalisation
    audio_write(f"output_{idx}", one_wav.cpu(), model.sample_rate, strategy="loudness")
{% endif %}
