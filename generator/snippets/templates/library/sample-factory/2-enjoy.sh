{% set name = id | split("/") | last %}
{% set env = card_data["model-index"][0]["results"][0]["dataset"]["name"] %}
{% set families = {"doom_": "vizdoom", "mujoco_": "mujoco", "atari_": "atari", "dmlab_": "dmlab"} %}
{% set ns = namespace(family=none) %}
{% for prefix, family in families | items %}
{% if env and env[:prefix | length] == prefix %}
{% set ns.family = family %}
{% endif %}
{% endfor %}
# Download the experiment (checkpoint and config) into ./train_dir/{{ name | comment }}
python -m sample_factory.huggingface.load_from_hub -r {{ id | sh }} -d ./train_dir

{% if ns.family %}
# Watch the agent play
python -m sf_examples.{{ ns.family }}.enjoy_{{ ns.family }} --algo=APPO --env={{ env | sh }} --train_dir=./train_dir --experiment={{ name | sh }}
{% else %}
# Watch the agent play with the enjoy script of its environment family, for example:
# python -m sf_examples.mujoco.enjoy_mujoco --algo=APPO --env=<env name> --train_dir=./train_dir --experiment={{ name | comment }}
{% endif %}
