{% import "shared/inputs.jinja" as inputs %}
from model2vec import StaticModel

model = StaticModel.from_pretrained({{ id | py }})

sentences = [
    {{ inputs.text("It's dangerous to go alone!") }},
    "Take this with you.",
]
embeddings = model.encode(sentences)
print(embeddings.shape)

# Token-level vectors, one array per sentence
token_embeddings = model.encode_as_sequence(sentences)
print([t.shape for t in token_embeddings])
