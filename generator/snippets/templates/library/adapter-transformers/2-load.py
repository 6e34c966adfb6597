{#- Adapters (formerly adapter-transformers): the adapter loads on top of
    the base model named in config.adapter_transformers.model_name. -#}
{% set base = config.adapter_transformers.model_name %}
{% set qa = widget_data | selectattr("context") | first %}
{% if not base %}
# Base model not specified in config.json
{% else %}
from adapters import AutoAdapterModel
{% if pipeline_tag in ["question-answering", "text-classification", "token-classification"] %}
from transformers import AutoTokenizer
{% endif %}

model = AutoAdapterModel.from_pretrained({{ base | py }})
model.load_adapter({{ id | py }}, set_active=True)
{% if pipeline_tag == "question-answering" %}
tokenizer = AutoTokenizer.from_pretrained({{ base | py }})

question = {{ ((qa.text if qa else none) or "Where do I live?") | py }}
context = {{ ((qa.context if qa else none) or "My name is Wolfgang and I live in Berlin.") | py }}
inputs = tokenizer(question, context, return_tensors="pt")
outputs = model(**inputs)
start = outputs.start_logits.argmax()
end = outputs.end_logits.argmax() + 1
print(tokenizer.decode(inputs["input_ids"][0][start:end]))
{% elif pipeline_tag in ["text-classification", "token-classification"] %}
tokenizer = AutoTokenizer.from_pretrained({{ base | py }})

inputs = tokenizer({{ inputs.text }}, return_tensors="pt")
outputs = model(**inputs)
print(outputs.logits.argmax(dim=-1))
{% endif %}
{% endif %}
