# Also install the package of the agent's environment, for example gymnasium[box2d]
pip install -U huggingface_sb3 stable-baselines3 sb3-contrib
