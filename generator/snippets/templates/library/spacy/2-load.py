{#- spaCy pipelines are published as a wheel in the repository; once
    installed, the package loads by its name. -#}
{% import "shared/inputs.jinja" as inputs %}
{% set name = id | split("/") | last %}
import spacy

nlp = spacy.load({{ name | py }})

doc = nlp({{ inputs.text("Apple is looking at buying a U.K. startup for one billion dollars.") }})
for ent in doc.ents:
    print(ent.text, ent.label_)
