{#- transformers v5 pipelines; summarization, translation and text2text were
    removed in v5, so those tasks only get the direct example. Inputs are the
    model's sample inputs (`sample`: texts, table, candidate labels), the
    same its hosted-inference examples send. -#}
{% set task = pipeline_tag %}
{% set remote = ", trust_remote_code=True" if "custom_code" in tags else "" %}
{% set chat = conversational and task in ["text-generation", "image-text-to-text"] %}
{% set image_tasks = ["image-classification", "object-detection", "image-segmentation", "depth-estimation",
    "image-to-text", "image-to-image", "mask-generation", "image-feature-extraction", "keypoint-detection"] %}
{% set audio_tasks = ["automatic-speech-recognition", "audio-classification"] %}
{% set text_tasks = ["text-classification", "token-classification", "feature-extraction", "text-generation",
    "text-to-audio", "text-to-speech"] %}
{% set other_tasks = ["fill-mask", "question-answering", "zero-shot-classification", "zero-shot-image-classification",
    "image-text-to-text", "document-question-answering", "visual-question-answering", "table-question-answering",
    "video-classification", "zero-shot-object-detection", "zero-shot-audio-classification"] %}
{% if task in image_tasks + audio_tasks + text_tasks + other_tasks %}
# Use a pipeline as a high-level helper
from transformers import pipeline

pipe = pipeline({{ task | py }}, model={{ id | py }}{{ remote }})
{% if chat and task == "image-text-to-text" %}
{{ inputs.image_chat_messages }}
print(pipe(text=messages))
{% elif chat %}
{{ inputs.chat_messages }}
print(pipe(messages))
{% elif task in image_tasks %}
{{ inputs.image_file }}
print(pipe(image))
{% elif task in audio_tasks %}
{{ inputs.audio_file }}
print(pipe(audio))
{% elif task == "video-classification" %}
{{ inputs.video_file }}
print(pipe(video))
{% elif task == "fill-mask" %}
print(pipe({{ sample.text | py }}.replace("[MASK]", pipe.tokenizer.mask_token)))
{% elif task == "question-answering" %}
print(pipe(question={{ sample.question | py }}, context={{ sample.context | py }}))
{% elif task == "zero-shot-classification" %}
print(pipe({{ sample.text | py }}, candidate_labels={{ sample.candidate_labels | pyval }}))
{% elif task == "zero-shot-image-classification" %}
{{ inputs.image_file }}
print(pipe(image, candidate_labels={{ sample.candidate_labels | pyval }}))
{% elif task == "zero-shot-audio-classification" %}
{{ inputs.audio_file }}
print(pipe(audio, candidate_labels={{ sample.candidate_labels | pyval }}))
{% elif task == "zero-shot-object-detection" %}
{{ inputs.image_file }}
print(pipe(image, candidate_labels={{ sample.candidate_labels | pyval }}))
{% elif task == "image-text-to-text" %}
{{ inputs.image_file }}
print(pipe(images=image, text={{ sample.chat_text | py }}))
{% elif task in ["document-question-answering", "visual-question-answering"] %}
{{ inputs.image_file }}
print(pipe(image=image, question={{ sample.question | py }}))
{% elif task == "table-question-answering" %}
table = {{ sample.table | format_body("python") }}
print(pipe(table=table, query={{ sample.question | py }}))
{% else %}
print(pipe({{ inputs.text }}))
{% endif %}
{% endif %}
