{#- Transformers.js (v3+) pipelines, as an ES module; top-level await is
    fine. Only tasks that transformers.js pipelines support get an example.
    Inputs are the model's sample texts (`sample`), the same its
    hosted-inference examples send. -#}
{% set task = pipeline_tag %}
{% set text_tasks = ["text-classification", "token-classification", "text-generation", "summarization",
    "translation", "text2text-generation", "text-to-audio", "text-to-speech"] %}
{% set image_tasks = ["image-classification", "image-segmentation", "object-detection", "image-to-text",
    "image-to-image", "depth-estimation", "image-feature-extraction", "background-removal"] %}
{% set audio_tasks = ["automatic-speech-recognition", "audio-classification"] %}
{% set other_tasks = ["feature-extraction", "fill-mask", "question-answering", "zero-shot-classification",
    "zero-shot-image-classification", "zero-shot-audio-classification", "zero-shot-object-detection",
    "document-question-answering"] %}
{% if task not in text_tasks + image_tasks + audio_tasks + other_tasks %}
// Unknown pipeline tag
{% else %}
import { pipeline } from "@huggingface/transformers";

const pipe = await pipeline({{ task | js }}, {{ id | js }});

{% if task in image_tasks or task in ["zero-shot-image-classification", "zero-shot-object-detection", "document-question-answering"] %}
const image = "photo.jpg"; // path or URL of your image
{% elif task in audio_tasks or task == "zero-shot-audio-classification" %}
const audio = "sample.wav"; // URL of your audio file (in Node.js, pass a Float32Array of samples)
{% endif %}
{% if task == "feature-extraction" %}
const output = await pipe({{ sample.text | js }}, { pooling: "mean", normalize: true });
{% elif task == "fill-mask" %}
const output = await pipe({{ sample.text | js }}.replace("[MASK]", pipe.tokenizer.mask_token));
{% elif task == "question-answering" %}
const output = await pipe({{ sample.question | js }}, {{ sample.context | js }});
{% elif task == "zero-shot-classification" %}
const output = await pipe({{ sample.text | js }}, ["refund", "legal", "faq"]);
{% elif task == "zero-shot-image-classification" %}
const output = await pipe(image, ["cat", "dog", "bird"]);
{% elif task == "zero-shot-object-detection" %}
const output = await pipe(image, ["cat", "remote control"]);
{% elif task == "zero-shot-audio-classification" %}
const output = await pipe(audio, ["speech", "music", "noise"]);
{% elif task == "document-question-answering" %}
const output = await pipe(image, {{ sample.question | js }});
{% elif task in image_tasks %}
const output = await pipe(image);
{% elif task in audio_tasks %}
const output = await pipe(audio);
{% elif task in ["text-generation", "text2text-generation", "summarization", "translation"] %}
const output = await pipe({{ sample.text | js }}, { max_new_tokens: 64 });
{% else %}
const output = await pipe({{ sample.text | js }});
{% endif %}
console.log(output);
{% endif %}
