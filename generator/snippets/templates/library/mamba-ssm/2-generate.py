import torch
from transformers import AutoTokenizer
from mamba_ssm.models.mixer_seq_simple import MambaLMHeadModel

# The state-spaces checkpoints use the GPT-NeoX tokenizer
tokenizer = AutoTokenizer.from_pretrained("EleutherAI/gpt-neox-20b")
model = MambaLMHeadModel.from_pretrained({{ id | py }}, device="cuda", dtype=torch.float16)

input_ids = tokenizer({{ (widget_text or "Mamba is a state space model that") | py }}, return_tensors="pt").input_ids.to("cuda")
output_ids = model.generate(
    input_ids=input_ids,
    max_length=input_ids.shape[1] + 64,
    temperature=0.7,
    top_k=50,
    top_p=0.9,
)
print(tokenizer.decode(output_ids[0], skip_special_tokens=True))
