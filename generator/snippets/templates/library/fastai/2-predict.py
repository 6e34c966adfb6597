from huggingface_hub import from_pretrained_fastai

learn = from_pretrained_fastai({{ id | py }})
{% if pipeline_tag == "image-classification" %}

{{ inputs.image_file }}
prediction, index, probabilities = learn.predict(image)
print(prediction)
{% endif %}
