{% set name = id | split("/") | last %}
{% set lang = card_data.language if card_data.language is string else (name[7:] if name[:7] == "stanza-" else none) %}
{% if not lang %}
# Language of this Stanza model unknown: pass its language code to stanza.Pipeline.
{% else %}
import stanza

# Downloads the {{ lang | comment }} models from the Hub on first use
nlp = stanza.Pipeline(lang={{ lang | py }})

doc = nlp({{ (widget_text or "Barack Obama was born in Hawaii. He was elected president in 2008.") | py }})
for sentence in doc.sentences:
    for word in sentence.words:
        print(word.text, word.lemma, word.upos, word.deprel)
print(doc.ents)
{% endif %}
