{#- PEFT adapters load on top of their base model, with the transformers
    class that matches the adapter's task type. -#}
{% set classes = {
    "CAUSAL_LM": "AutoModelForCausalLM",
    "SEQ_2_SEQ_LM": "AutoModelForSeq2SeqLM",
    "TOKEN_CLS": "AutoModelForTokenClassification",
    "SEQ_CLS": "AutoModelForSequenceClassification",
} %}
{% set task_type = config.peft.task_type %}
{% set base = config.peft.base_model_name_or_path %}
{% if not (task_type | ident) or task_type not in classes %}
# Task type is invalid.
{% elif not base %}
# Base model is not found.
{% else %}
{% set auto = classes[task_type] %}
from peft import PeftModel
from transformers import AutoTokenizer, {{ auto }}

base_model = {{ auto }}.from_pretrained({{ base | py }}, device_map="auto")
model = PeftModel.from_pretrained(base_model, {{ id | py }})
tokenizer = AutoTokenizer.from_pretrained({{ base | py }})

inputs = tokenizer({{ inputs.text }}, return_tensors="pt").to(model.device)
{% if task_type in ["CAUSAL_LM", "SEQ_2_SEQ_LM"] %}
outputs = model.generate(**inputs, max_new_tokens=64)
print(tokenizer.decode(outputs[0], skip_special_tokens=True))
{% else %}
logits = model(**inputs).logits
print(logits.argmax(dim=-1))
{% endif %}
{% endif %}
