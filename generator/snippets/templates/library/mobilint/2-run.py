{% if pipeline_tag == "text-generation" %}
from transformers import pipeline

# The compiled .mxq model and its NPU runner come with the repository (remote code)
pipe = pipeline("text-generation", model={{ id | py }}, trust_remote_code=True)

{{ inputs.chat_messages }}
print(pipe(messages, max_new_tokens=128))
pipe.model.dispose()  # release the NPU
{% elif pipeline_tag == "image-text-to-text" %}
from transformers import AutoModelForImageTextToText, AutoProcessor

processor = AutoProcessor.from_pretrained({{ id | py }}, trust_remote_code=True)
model = AutoModelForImageTextToText.from_pretrained({{ id | py }}, trust_remote_code=True)

{{ inputs.image_chat_messages }}
inputs = processor.apply_chat_template(
    messages,
    add_generation_prompt=True,
    tokenize=True,
    return_dict=True,
    return_tensors="pt",
)
outputs = model.generate(**inputs, max_new_tokens=128)
print(processor.decode(outputs[0][inputs["input_ids"].shape[-1]:], skip_special_tokens=True))
model.dispose()  # release the NPU
{% elif pipeline_tag in ["image-classification", "object-detection", "image-segmentation", "keypoint-detection"] %}
{% set model_cls = id | split("/") | last | lower %}
from mblt_model_zoo.vision import MBLT_Engine

# model_path="" downloads the compiled .mxq file from the Hub
model = MBLT_Engine(model_cls={{ model_cls | py }}, model_type="DEFAULT", model_path="", core_mode="global8")

{{ inputs.image_file }}
try:
    output = model(model.preprocess(image))
    result = model.postprocess(output)
    result.plot(source_path=image, save_path="result.jpg")
finally:
    model.dispose()
{% else %}
from transformers import AutoModel

model = AutoModel.from_pretrained({{ id | py }}, trust_remote_code=True)
print(model)
{% endif %}
