import numpy as np
from araclip import AraClip
from PIL import Image

model = AraClip.from_pretrained({{ id | py }})

image = Image.open("photo.jpg")  # path to your image
labels = ["قطة", "كلب", "حصان", "سيارة"]  # Arabic captions to rank: cat, dog, horse, car

image_features = model.embed(image=image)
text_features = np.stack([model.embed(text=label) for label in labels])
similarities = text_features @ image_features
print("Best match:", labels[int(np.argmax(similarities))])
