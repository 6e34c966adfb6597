{% if pipeline_tag == "fill-mask" %}
import multimolecule  # noqa: F401  (registers the MultiMolecule models with transformers)
from transformers import pipeline

predictor = pipeline("fill-mask", model={{ id | py }})
print(predictor({{ (widget_text or "gguc<mask>cucugguuagaccagaucugagccu") | py }}))
{% else %}
import multimolecule  # noqa: F401  (registers the MultiMolecule models with transformers)
from transformers import AutoModel, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained({{ id | py }})
model = AutoModel.from_pretrained({{ id | py }})

sequence = {{ (widget_text or "UAGCUUAUCAGACUGAUGUUGA") | py }}
inputs = tokenizer(sequence, return_tensors="pt")
output = model(**inputs)
print(output.last_hidden_state.shape)
{% endif %}
