{% import "shared/inputs.jinja" as inputs %}
from setfit import SetFitModel

model = SetFitModel.from_pretrained({{ id | py }})

predictions = model.predict([{{ inputs.text("I loved the spiderman movie!") }}])
print(predictions)
