from relik import Relik

relik = Relik.from_pretrained({{ id | py }})

output = relik({{ (widget_text or "Marie Curie won the Nobel Prize in Physics together with Pierre Curie in Paris.") | py }})
print(output)
