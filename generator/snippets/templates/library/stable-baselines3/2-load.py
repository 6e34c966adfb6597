{% set name = id | split("/") | last %}
{% set lower_name = name | lower %}
{% set sb3 = ["A2C", "DDPG", "DQN", "PPO", "SAC", "TD3"] %}
{% set contrib = ["ARS", "CrossQ", "MaskablePPO", "QRDQN", "RecurrentPPO", "TQC", "TRPO"] %}
{% set ns = namespace(algo=none) %}
{% for algo in contrib + sb3 %}
{% set key = algo | lower %}
{% if not ns.algo and (key in tags or lower_name[:key | length + 1] == key ~ "-") %}
{% set ns.algo = algo %}
{% endif %}
{% endfor %}
{% set algo = ns.algo | ident %}
{% if not algo %}
# The algorithm of this agent is not in its tags or name: import the stable-baselines3 class it was trained with.
from huggingface_sb3 import load_from_hub

checkpoint = load_from_hub(repo_id={{ id | py }}, filename={{ (name ~ ".zip") | py }})
{% else %}
{% set env_id = name[(algo | length) + 1:] if lower_name[:(algo | length) + 1] == (algo | lower) ~ "-" else none %}
{% if env_id %}
import gymnasium as gym
{% endif %}
from huggingface_sb3 import load_from_hub
{% if algo in contrib %}
from sb3_contrib import {{ algo }}
{% else %}
from stable_baselines3 import {{ algo }}
{% endif %}

checkpoint = load_from_hub(repo_id={{ id | py }}, filename={{ (name ~ ".zip") | py }})
model = {{ algo }}.load(checkpoint)
{% if env_id %}

# Run one episode of the trained agent
env = gym.make({{ env_id | py }}, render_mode="human")
obs, info = env.reset()
done = False
while not done:
    action, _ = model.predict(obs, deterministic=True)
    obs, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
env.close()
{% endif %}
{% endif %}
