{#- flair: text classifiers load with TextClassifier, taggers (the usual
    case) with SequenceTagger. -#}
{% set cls = "TextClassifier" if pipeline_tag == "text-classification" else "SequenceTagger" %}
from flair.data import Sentence
from flair.models import {{ cls }}

model = {{ cls }}.load({{ id | py }})

sentence = Sentence({{ (widget_text or "George Washington went to Washington.") | py }})
model.predict(sentence)
print(sentence)
{% if cls == "SequenceTagger" %}
for span in sentence.get_spans():
    print(span)
{% endif %}
