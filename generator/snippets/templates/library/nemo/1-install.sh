{% if pipeline_tag == "automatic-speech-recognition" or "automatic-speech-recognition" in tags %}
pip install -U "nemo_toolkit[asr]"
{% else %}
pip install -U "nemo_toolkit[all]"
{% endif %}
