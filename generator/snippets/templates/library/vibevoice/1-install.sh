# VibeVoice runs from its repository (an NVIDIA PyTorch container is the tested setup)
git clone https://github.com/microsoft/VibeVoice.git
cd VibeVoice
pip install -e .
