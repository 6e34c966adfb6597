{% if "gpt2" in tags %}
from pxia import AutoModel
from transformers import AutoTokenizer

# AutoModel reads the repository tags and picks the matching pxia class (GPT2 here)
model = AutoModel.from_pretrained({{ id | py }})
tokenizer = AutoTokenizer.from_pretrained("openai-community/gpt2")

inputs = tokenizer({{ (widget_text or "Once upon a time") | py }}, return_tensors="pt")
text = model.generate(inputs["input_ids"], inputs["attention_mask"], max_new_tokens=20, tokenizer=tokenizer)
print(text)
{% elif "ann" in tags %}
import torch
from pxia import AutoModel

# AutoModel reads the repository tags and picks the matching pxia class (ANN here)
model = AutoModel.from_pretrained({{ id | py }})

x = torch.randn(1, model.cfg.a)
print(model(x))
{% else %}
from pxia import AutoModel

# AutoModel reads the repository tags and picks the matching pxia class
model = AutoModel.from_pretrained({{ id | py }})
{% endif %}
