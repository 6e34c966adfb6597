{#- NeMo: the collection (domain) follows the task; only speech recognition
    is covered. -#}
{% if pipeline_tag == "automatic-speech-recognition" or "automatic-speech-recognition" in tags %}
import nemo.collections.asr as nemo_asr

asr_model = nemo_asr.models.ASRModel.from_pretrained(model_name={{ id | py }})

audio = "sample.wav"  # path to your audio file (16 kHz, mono)
output = asr_model.transcribe([audio])
print(output[0].text)
{% else %}
# tag did not correspond to a valid NeMo domain.
{% endif %}
