# Zonos needs eSpeak NG for phonemization
sudo apt install -y espeak-ng
git clone https://github.com/Zyphra/Zonos.git
cd Zonos
pip install -e .
