{#- EDS-NLP pipelines (French clinical text) load straight from the Hub. -#}
{% import "shared/inputs.jinja" as inputs %}
import edsnlp

nlp = edsnlp.load({{ id | py }})

doc = nlp({{ inputs.text("Le patient a été admis le 12 mars 2023 pour une pneumopathie.") }})
for entity in doc.ents:
    print(entity.text, entity.label_)
