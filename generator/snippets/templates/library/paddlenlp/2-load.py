{% import "shared/inputs.jinja" as inputs %}
from paddlenlp.transformers import AutoModel, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained({{ id | py }}, from_hf_hub=True)
model = AutoModel.from_pretrained({{ id | py }}, from_hf_hub=True)
model.eval()

inputs = tokenizer({{ inputs.text("欢迎使用百度飞桨！") }}, return_tensors="pd")
outputs = model(**inputs)
print(outputs[0].shape)  # token embeddings: [batch, tokens, hidden]
