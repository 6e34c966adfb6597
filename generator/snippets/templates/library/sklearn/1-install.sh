{#- skops: a model tagged `skops` is loaded with skops unless its config says
    it was saved as a pickle; one saved in skops format is too. -#}
{% set format = config.sklearn.model_format %}
{% if format == "skops" or ("skops" in tags and format != "pickle") %}
pip install -U scikit-learn skops huggingface_hub
{% else %}
pip install -U scikit-learn joblib huggingface_hub
{% endif %}
