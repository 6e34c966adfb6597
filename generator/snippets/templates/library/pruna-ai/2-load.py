{% set image_tasks = ["text-to-image", "image-to-image"] %}
from pruna import PrunaModel
{% if pipeline_tag == "text-generation" %}
from transformers import AutoTokenizer
{% endif %}

# Loads the optimized ("smashed") model together with its smash configuration
model = PrunaModel.from_pretrained({{ id | py }})
{% if pipeline_tag in image_tasks %}

prompt = {{ (widget_text or "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k") | py }}
image = model(prompt).images[0]
image.save("output.png")
{% elif pipeline_tag == "text-generation" %}
tokenizer = AutoTokenizer.from_pretrained({{ (base_model or id) | py }})

inputs = tokenizer({{ (widget_text or "The best way to make a model faster is") | py }}, return_tensors="pt").to(model.device)
outputs = model.generate(**inputs, max_new_tokens=64)
print(tokenizer.decode(outputs[0], skip_special_tokens=True))
{% else %}
# Call `model(...)` with the same inputs as the original, unoptimized model.
{% endif %}
