# Also install the package of the agent's environment (for example vizdoom, or gymnasium with MuJoCo or Atari)
pip install -U sample-factory
