{#- EDS-NLP pipelines (French clinical text) load straight from the Hub. -#}
import edsnlp

nlp = edsnlp.load({{ id | py }})

doc = nlp({{ (widget_text or "Le patient a été admis le 12 mars 2023 pour une pneumopathie.") | py }})
for entity in doc.ents:
    print(entity.text, entity.label_)
