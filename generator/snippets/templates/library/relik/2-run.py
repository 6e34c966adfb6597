{% import "shared/inputs.jinja" as inputs %}
from relik import Relik

relik = Relik.from_pretrained({{ id | py }})

output = relik({{ inputs.text("Marie Curie won the Nobel Prize in Physics together with Pierre Curie in Paris.") }})
print(output)
