# IndexTTS runs from its repository, in the environment uv creates;
# start the Python example there with: uv run python example.py
git clone https://github.com/index-tts/index-tts.git
cd index-tts
uv sync --all-extras
