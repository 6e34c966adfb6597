{#- flair: text classifiers load with TextClassifier, taggers (the usual
    case) with SequenceTagger. -#}
{% import "shared/inputs.jinja" as inputs %}
{% set cls = "TextClassifier" if pipeline_tag == "text-classification" else "SequenceTagger" %}
from flair.data import Sentence
from flair.models import {{ cls }}

model = {{ cls }}.load({{ id | py }})

sentence = Sentence({{ inputs.text("George Washington went to Washington.") }})
model.predict(sentence)
print(sentence)
{% if cls == "SequenceTagger" %}
for span in sentence.get_spans():
    print(span)
{% endif %}
