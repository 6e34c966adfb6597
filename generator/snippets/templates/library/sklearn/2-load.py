{#- scikit-learn models are files in the repository: skops (safe loading,
    types checked) or pickle via joblib (the default). A model tagged `skops`
    names its file in its config (`sklearn.model.file`); without one there is
    no file to load, and the spec's fallback says so. It is loaded with skops
    unless the config says it was saved as a pickle. -#}
{% set format = config.sklearn.model_format %}
{% set skops_repo = "skops" in tags or format == "skops" %}
{% set skops = format == "skops" or (skops_repo and format != "pickle") %}
{% set file = config.sklearn.model.file %}
{% set example = config.sklearn.example_input %}
{% set columns = config.sklearn.columns %}
{% if skops_repo and not (file is string and file) %}
# Model filename not specified in config.json
{% else %}
{% if not skops %}
import joblib
{% endif %}
{% if example is mapping %}
import pandas as pd
{% endif %}
from huggingface_hub import hf_hub_download
{% if skops %}
from skops.io import get_untrusted_types, load
{% endif %}

path = hf_hub_download(repo_id={{ id | py }}, filename={{ (file or "sklearn_model.joblib") | py }})
{% if skops %}
# skops only loads types you trust: review this list before passing it on
untrusted_types = get_untrusted_types(file=path)
print(untrusted_types)
model = load(path, trusted=untrusted_types)
{% else %}
# a pickle can run code when loaded: only load files from sources you trust
model = joblib.load(path)
{% endif %}
{% if example is mapping %}

{% if columns is sequence and columns is not string %}
data = pd.DataFrame({{ example | pyval }})[{{ columns | pyval }}]
{% else %}
data = pd.DataFrame({{ example | pyval }})
{% endif %}
print(model.predict(data))
{% endif %}
{% endif %}
