# VoiceCraft runs from its repository (Python 3.9, PyTorch 2.0.1)
git clone https://github.com/jasonppy/VoiceCraft.git
cd VoiceCraft
sudo apt-get install -y espeak-ng ffmpeg  # phonemizer backend and audio decoding
pip install torch==2.0.1 torchaudio==2.0.2 tensorboard==2.16.2 phonemizer==3.2.1 datasets==2.16.0 torchmetrics==0.11.1 huggingface_hub
pip install -e "git+https://github.com/facebookresearch/audiocraft.git@c5157b5bf14bf83449c17ea1eeb66c19fb4bc7f0#egg=audiocraft"
