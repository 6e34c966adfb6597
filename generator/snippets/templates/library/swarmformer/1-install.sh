git clone https://github.com/takara-ai/SwarmFormer.git
cd SwarmFormer
pip install -e .
