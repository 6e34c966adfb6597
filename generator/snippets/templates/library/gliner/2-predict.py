from gliner import GLiNER

model = GLiNER.from_pretrained({{ id | py }})

text = {{ (widget_text or "Ada Lovelace wrote about the Analytical Engine in London in 1843.") | py }}
labels = ["person", "organization", "location", "date"]
entities = model.predict_entities(text, labels, threshold=0.5)
for entity in entities:
    print(entity["text"], "=>", entity["label"])
