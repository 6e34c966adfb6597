from model2vec import StaticModel

model = StaticModel.from_pretrained({{ id | py }})

sentences = [
    {{ (widget_text or "It's dangerous to go alone!") | py }},
    "Take this with you.",
]
embeddings = model.encode(sentences)
print(embeddings.shape)

# Token-level vectors, one array per sentence
token_embeddings = model.encode_as_sequence(sentences)
print([t.shape for t in token_embeddings])
