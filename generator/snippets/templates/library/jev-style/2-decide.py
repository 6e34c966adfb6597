from jev_style import JevStyle, choice, noul, score

# One forward pass answers every question with calibrated probabilities.
js = JevStyle.from_pretrained({{ id | py }}{{ ', quant="Q4_K_M"' if "gguf" in tags }})

text = {{ (widget_text or "My parcel is two weeks late and I was charged twice.") | py }}
out = js.decide(text, {
    "is_billing": noul("The message is about a payment problem."),
    "team": choice("Which team should answer?", ["billing", "shipping", "returns"]),
    "urgency": score("How soon does this need an answer?", ["can wait", "this week", "today"]),
})
print(out["answers"]["team"]["choice"], out["answers"]["team"]["probabilities"])
print(out["answers"]["is_billing"]["noul"])
