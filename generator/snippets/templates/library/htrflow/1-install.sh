pip install "htrflow[all]"
