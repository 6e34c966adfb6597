{% if pipeline_tag == "text-generation" %}
from mlx_lm import generate, load

model, tokenizer = load({{ id | py }})
{% if conversational %}

{{ inputs.chat_messages }}
prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True)
{% else %}
prompt = {{ (widget_text or "Once upon a time,") | py }}
{% endif %}
text = generate(model, tokenizer, prompt=prompt, max_tokens=256)
print(text)
{% elif pipeline_tag == "automatic-speech-recognition" %}
import mlx_whisper

{{ inputs.audio_file }}
result = mlx_whisper.transcribe(audio, path_or_hf_repo={{ id | py }})
print(result["text"])
{% endif %}
