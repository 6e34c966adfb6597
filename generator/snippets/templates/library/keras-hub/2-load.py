{#- KerasHub: config.keras_hub.tasks names the task classes the preset
    supports; each loads from the hf:// preset. -#}
{% set listed = config.keras_hub.tasks %}
{% if listed is string %}
{% set listed = [listed] %}
{% elif listed is not sequence %}
{% set listed = [] %}
{% endif %}
{% set tasks = listed | map("ident") | select | list %}
import keras_hub

{% if not tasks %}
# The preset names no task: load its backbone
backbone = keras_hub.models.Backbone.from_preset({{ ("hf://" ~ id) | py }})
{% endif %}
{% for task in tasks %}
{% if not loop.first %}

{% endif %}
{% set name = "causal_lm" if task == "CausalLM" else (task | lower) ~ "_model" %}
{{ name }} = keras_hub.models.{{ task }}.from_preset({{ ("hf://" ~ id) | py }})
{% if task == "CausalLM" %}
print({{ name }}.generate({{ inputs.text }}, max_length=64))
{% endif %}
{% endfor %}
