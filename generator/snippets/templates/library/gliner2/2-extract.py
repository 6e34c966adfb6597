from gliner2 import GLiNER2

extractor = GLiNER2.from_pretrained({{ id | py }})

text = {{ (widget_text or "Ada Lovelace wrote about the Analytical Engine in London in 1843.") | py }}
result = extractor.extract_entities(text, ["person", "organization", "location", "date"])
print(result)
