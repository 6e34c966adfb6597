{% set bi = "bi-encoder" in tags or pipeline_tag in ["sentence-similarity", "feature-extraction"] %}
{% set cls = "BiEncoderModule" if bi else "CrossEncoderModule" %}
import torch
from lightning_ir import {{ cls }}

module = {{ cls }}(model_name_or_path={{ id | py }}).eval()

query = "What is the capital of France?"
docs = [
    "Paris is the capital and largest city of France.",
    "France borders Spain, Italy and Germany.",
    "The Eiffel Tower was finished in 1889.",
]
with torch.inference_mode():
    output = module.score(queries=query, docs=docs)
print(output.scores)
