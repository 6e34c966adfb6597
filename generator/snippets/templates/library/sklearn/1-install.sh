{% if config.sklearn.model_format == "skops" %}
pip install -U scikit-learn skops huggingface_hub
{% else %}
pip install -U scikit-learn joblib huggingface_hub
{% endif %}
