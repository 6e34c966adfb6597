pip install -U timm
