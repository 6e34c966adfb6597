from paddlenlp.transformers import AutoModel, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained({{ id | py }}, from_hf_hub=True)
model = AutoModel.from_pretrained({{ id | py }}, from_hf_hub=True)
model.eval()

inputs = tokenizer({{ (widget_text or "欢迎使用百度飞桨！") | py }}, return_tensors="pd")
outputs = model(**inputs)
print(outputs[0].shape)  # token embeddings: [batch, tokens, hidden]
