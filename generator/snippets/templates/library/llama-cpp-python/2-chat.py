from llama_cpp import Llama

# filename is a glob over this repository's .gguf files: pick the quantization you want
llm = Llama.from_pretrained(
    repo_id={{ id | py }},
    filename="*Q4_K_M.gguf",
)
{% if conversational %}

{{ inputs.chat_messages }}
output = llm.create_chat_completion(messages=messages, max_tokens=256)
print(output["choices"][0]["message"]["content"])
{% else %}

output = llm({{ (widget_text or "Once upon a time,") | py }}, max_tokens=128)
print(output["choices"][0]["text"])
{% endif %}
