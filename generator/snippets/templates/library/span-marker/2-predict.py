from span_marker import SpanMarkerModel

model = SpanMarkerModel.from_pretrained({{ id | py }})

entities = model.predict({{ (widget_text or "Ada Lovelace wrote about the Analytical Engine in London in 1843.") | py }})
print(entities)
