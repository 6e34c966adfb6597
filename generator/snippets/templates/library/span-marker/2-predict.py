{% import "shared/inputs.jinja" as inputs %}
from span_marker import SpanMarkerModel

model = SpanMarkerModel.from_pretrained({{ id | py }})

entities = model.predict({{ inputs.text("Ada Lovelace wrote about the Analytical Engine in London in 1843.") }})
print(entities)
