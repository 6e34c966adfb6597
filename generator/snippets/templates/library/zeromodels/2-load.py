{% set task_class = {
    "image-classification": "AutoZMImageClassify",
    "object-detection": "AutoZMDetect",
    "image-segmentation": "AutoZMSemanticSegment",
    "depth-estimation": "AutoZMDepthEstimation",
    "zero-shot-image-classification": "AutoZMZeroShotClassify",
    "zero-shot-object-detection": "AutoZMDetect",
    "text-generation": "AutoZMTextGenerate",
    "image-text-to-text": "AutoZMConditionalGenerate",
    "fill-mask": "AutoZMMaskedLM",
    "text-classification": "AutoZMSequenceClassify",
    "token-classification": "AutoZMTokenClassify",
    "question-answering": "AutoZMQnA",
} %}
{% set image_tasks = ["image-classification", "object-detection", "image-segmentation", "depth-estimation"] %}
{% set text_tasks = ["text-generation", "fill-mask", "text-classification", "token-classification", "question-answering"] %}
{% set auto = task_class[pipeline_tag] if pipeline_tag in task_class else none %}
{% set pre = "AutoZMImageProcessor" if pipeline_tag in image_tasks else ("AutoZMTokenizer" if pipeline_tag in text_tasks else "AutoZMProcessor") %}
# The repository's zm_config.json picks the model class; weights load into Keras 3.
{% if auto %}
from zeromodels import {{ pre }}
from zeromodels.auto import {{ auto }}

model = {{ auto }}.from_weights({{ id | py }})
{% else %}
from zeromodels import AutoZModel, {{ pre }}

model = AutoZModel.from_weights({{ id | py }})
{% endif %}
preprocessor = {{ pre }}.from_weights({{ id | py }})
model.summary()
