git clone https://github.com/Lightricks/LTX-2.git
cd LTX-2
uv sync --frozen
