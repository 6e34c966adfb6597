{#- fastText: the binary model file is model.bin in the repository. -#}
import fasttext
from huggingface_hub import hf_hub_download

model = fasttext.load_model(hf_hub_download(repo_id={{ id | py }}, filename="model.bin"))

{% if pipeline_tag == "text-classification" %}
labels, probabilities = model.predict({{ (widget_text or "Il fait beau aujourd'hui.") | py }}, k=3)
print(labels, probabilities)
{% else %}
vector = model.get_sentence_vector({{ (widget_text or "The quick brown fox jumps over the lazy dog.") | py }})
print(vector.shape)
{% endif %}
