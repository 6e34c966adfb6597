from setfit import SetFitModel

model = SetFitModel.from_pretrained({{ id | py }})

predictions = model.predict([{{ (widget_text or "I loved the spiderman movie!") | py }}])
print(predictions)
