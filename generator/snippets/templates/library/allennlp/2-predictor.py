{#- AllenNLP reads archives from the Hub through an "hf://" path. The reading
    comprehension models register themselves when allennlp_models.rc is imported. -#}
{% if pipeline_tag == "question-answering" %}
import allennlp_models.rc  # noqa: F401  registers the reading-comprehension models
{% else %}
import allennlp_models  # noqa: F401  the model zoo's predictors and readers
{% endif %}
from allennlp.predictors.predictor import Predictor

predictor = Predictor.from_path({{ ("hf://" ~ id) | py }})
{% if pipeline_tag == "question-answering" %}

passage = {{ (widget_data[0].context or "My name is Wolfgang and I live in Berlin.") | py }}
question = {{ (widget_text or "Where do I live?") | py }}
prediction = predictor.predict(passage=passage, question=question)
print(prediction["best_span_str"])
{% else %}

# The JSON keys depend on the predictor; most sentence-level ones read "sentence".
prediction = predictor.predict_json({"sentence": {{ inputs.text }}})
print(prediction)
{% endif %}
