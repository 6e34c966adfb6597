{#- spaCy pipelines are published as a wheel in the repository; once
    installed, the package loads by its name. -#}
{% set name = id | split("/") | last %}
import spacy

nlp = spacy.load({{ name | py }})

doc = nlp({{ (widget_text or "Apple is looking at buying a U.K. startup for one billion dollars.") | py }})
for ent in doc.ents:
    print(ent.text, ent.label_)
