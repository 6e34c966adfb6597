{#- ANEForge runs Hub models on the Apple Neural Engine: sentence encoders through
    its sentence-transformers drop-in, GPT-2 through load_gpt2 and other decoder
    LLMs through load_llm. -#}
{% if pipeline_tag in ["sentence-similarity", "feature-extraction"] %}
from aneforge.sentence_transformers import SentenceTransformer

model = SentenceTransformer({{ id | py }})
sentences = [
    {{ (widget_text or "The Apple Neural Engine runs this encoder.") | py }},
    "A sentence to compare it with.",
]
embeddings = model.encode(sentences, normalize_embeddings=True)
print(embeddings.shape)
print(embeddings[0] @ embeddings[1])  # cosine similarity
{% elif pipeline_tag == "text-generation" and "gpt2" in id | lower %}
import aneforge as af

model = af.load_gpt2({{ id | py }})
print(model.generate_text({{ (widget_text or "The Apple Neural Engine is") | py }}, max_new_tokens=20))
{% elif pipeline_tag == "text-generation" %}
import aneforge as af
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained({{ id | py }})
model = af.load_llm({{ id | py }})
prompt_ids = tokenizer.encode({{ (widget_text or "The capital of France is") | py }})
output_ids = model.generate(prompt_ids, max_new_tokens=24)
print(tokenizer.decode(output_ids))
{% else %}
# No ANEForge example for this task yet; see https://github.com/sbryngelson/ANEForge/tree/main/examples
{% endif %}
