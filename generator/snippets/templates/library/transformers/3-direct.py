{% set auto = transformers_info.auto_model | ident %}
{% set processor = transformers_info.processor | ident %}
{% set remote = ", trust_remote_code=True" if "custom_code" in tags else "" %}
{% set chat = conversational and pipeline_tag in ["text-generation", "image-text-to-text"] %}
{% if not auto %}
# Type of model unknown
{% else %}
# Load model directly
from transformers import {{ processor ~ ", " if processor }}{{ auto }}

{% if processor %}
{{ "tokenizer" if processor == "AutoTokenizer" else "processor" }} = {{ processor }}.from_pretrained({{ id | py }}{{ remote }})
{% endif %}
model = {{ auto }}.from_pretrained({{ id | py }}{{ remote }}, device_map="auto")
{% if chat and processor %}
{% set p = "tokenizer" if processor == "AutoTokenizer" else "processor" %}

{% if pipeline_tag == "image-text-to-text" %}
{{ inputs.image_chat_messages }}
{% else %}
{{ inputs.chat_messages }}
{% endif %}
inputs = {{ p }}.apply_chat_template(
    messages,
    add_generation_prompt=True,
    tokenize=True,
    return_dict=True,
    return_tensors="pt",
).to(model.device)
outputs = model.generate(**inputs, max_new_tokens=64)
print({{ p }}.decode(outputs[0][inputs["input_ids"].shape[-1]:], skip_special_tokens=True))
{% elif pipeline_tag in ["summarization", "translation", "text2text-generation"] and processor == "AutoTokenizer" %}

inputs = tokenizer({{ inputs.text }}, return_tensors="pt").to(model.device)
outputs = model.generate(**inputs, max_new_tokens=64)
print(tokenizer.decode(outputs[0], skip_special_tokens=True))
{% endif %}
{% endif %}
