# Vui runs from its repository
git clone https://github.com/fluxions-ai/vui.git
cd vui
pip install -e .
