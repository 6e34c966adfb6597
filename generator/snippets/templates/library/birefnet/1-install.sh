pip install -U transformers torch torchvision timm kornia einops
