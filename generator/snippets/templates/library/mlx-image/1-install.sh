pip install -U mlx-image
