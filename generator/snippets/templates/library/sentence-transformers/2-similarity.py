{#- sentence-transformers: embed sentences and compare them; the widget's
    source sentence and sentences when the record has them. -#}
from sentence_transformers import SentenceTransformer

model = SentenceTransformer({{ id | py }})

{% if source_sentence and sentences %}
query = {{ source_sentence | py }}
sentences = [
{% for sentence in sentences %}
    {{ sentence | py }},
{% endfor %}
]
query_embedding = model.encode([query])
embeddings = model.encode(sentences)
similarities = model.similarity(query_embedding, embeddings)
print(similarities)  # one score per sentence
{% else %}
sentences = [
    {{ (widget_text or "The weather is lovely today.") | py }},
    "It's so sunny outside!",
    "He drove to the stadium.",
]
embeddings = model.encode(sentences)
print(embeddings.shape)

similarities = model.similarity(embeddings, embeddings)
print(similarities)
{% endif %}
