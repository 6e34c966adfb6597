{% set classes = {
    "act": ["act", "ACTPolicy"],
    "diffusion": ["diffusion", "DiffusionPolicy"],
    "smolvla": ["smolvla", "SmolVLAPolicy"],
    "pi0": ["pi0", "PI0Policy"],
    "pi05": ["pi05", "PI05Policy"],
    "tdmpc": ["tdmpc", "TDMPCPolicy"],
    "vqbet": ["vqbet", "VQBeTPolicy"],
} %}
{% set kind = config.type %}
{% if kind in classes %}
{% set module = classes[kind][0] %}
{% set cls = classes[kind][1] %}
from lerobot.policies.{{ module }}.modeling_{{ module }} import {{ cls }}

policy = {{ cls }}.from_pretrained({{ id | py }})
policy.eval()

# What the policy expects from the robot, and what it outputs
print(policy.config.input_features)
print(policy.config.output_features)
{% else %}
# No Python loading example for this policy type (config.json "type"); use --policy.path with this repository.
{% endif %}
