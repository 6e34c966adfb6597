{#- ESPnet: text-to-speech and speech recognition models, loaded through
    espnet_model_zoo's from_pretrained. -#}
{% if pipeline_tag == "text-to-speech" %}
import soundfile
from espnet2.bin.tts_inference import Text2Speech

text2speech = Text2Speech.from_pretrained({{ id | py }})

speech = text2speech({{ (widget_text or "Hello, this is a test of speech synthesis.") | py }})["wav"]
soundfile.write("output.wav", speech.numpy(), text2speech.fs)
{% elif pipeline_tag == "automatic-speech-recognition" %}
import soundfile
from espnet2.bin.asr_inference import Speech2Text

speech2text = Speech2Text.from_pretrained({{ id | py }})

speech, rate = soundfile.read("sample.wav")  # your audio file, at the model's sampling rate
text, *_ = speech2text(speech)[0]
print(text)
{% else %}
# unknown model type (must be text-to-speech or automatic-speech-recognition)
{% endif %}
