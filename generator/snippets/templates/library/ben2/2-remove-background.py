import torch
from ben2 import AutoModel
from PIL import Image

device = "cuda" if torch.cuda.is_available() else "cpu"
model = AutoModel.from_pretrained({{ id | py }})
model.to(device).eval()

image = Image.open("photo.jpg")  # path to your image
foreground = model.inference(image, refine_foreground=False)  # RGBA, background removed
foreground.save("foreground.png")
