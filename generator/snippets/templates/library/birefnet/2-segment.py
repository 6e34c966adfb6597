{#- BiRefNet checkpoints on the Hub ship their model code, loaded with
    trust_remote_code; inputs are 1024x1024 ImageNet-normalised images. -#}
import torch
from PIL import Image
from torchvision import transforms
from transformers import AutoModelForImageSegmentation

device = "cuda" if torch.cuda.is_available() else "cpu"
model = AutoModelForImageSegmentation.from_pretrained({{ id | py }}, trust_remote_code=True)
model.to(device).eval()

preprocess = transforms.Compose([
    transforms.Resize((1024, 1024)),
    transforms.ToTensor(),
    transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
])

image = Image.open("photo.jpg").convert("RGB")  # path to your image
batch = preprocess(image).unsqueeze(0).to(device)
with torch.no_grad():
    mask = model(batch)[-1].sigmoid().cpu()[0].squeeze()

alpha = transforms.ToPILImage()(mask).resize(image.size)
image.putalpha(alpha)
image.save("foreground.png")
