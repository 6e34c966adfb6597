import cartesia_mlx as cmx
import mlx.core as mx

model = cmx.from_pretrained({{ id | py }})
model.set_dtype(mx.float32)

prompt = {{ (widget_text or "Rene Descartes was") | py }}
print(prompt, end="", flush=True)
for text in model.generate(prompt, max_tokens=200, eval_every_n=5, top_p=0.99, temperature=0.85):
    print(text, end="", flush=True)
print()
