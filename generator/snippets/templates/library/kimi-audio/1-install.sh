# Kimi-Audio runs from its repository (the inference code and the audio tokenizer are submodules).
git clone --recurse-submodules https://github.com/MoonshotAI/Kimi-Audio.git
cd Kimi-Audio
pip install -r requirements.txt
