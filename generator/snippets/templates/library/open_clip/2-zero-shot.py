{#- OpenCLIP: model, preprocessing and tokenizer from the hf-hub: name;
    zero-shot classification of an image against a few labels. -#}
import open_clip
import torch
from PIL import Image

model, _, preprocess = open_clip.create_model_and_transforms({{ ("hf-hub:" ~ id) | py }})
tokenizer = open_clip.get_tokenizer({{ ("hf-hub:" ~ id) | py }})
model.eval()

labels = ["a photo of a cat", "a photo of a dog", "a diagram"]
image = preprocess(Image.open("photo.jpg")).unsqueeze(0)  # path to your image
text = tokenizer(labels)

with torch.no_grad():
    image_features = model.encode_image(image)
    text_features = model.encode_text(text)
    image_features = image_features / image_features.norm(dim=-1, keepdim=True)
    text_features = text_features / text_features.norm(dim=-1, keepdim=True)
    probabilities = (100.0 * image_features @ text_features.T).softmax(dim=-1)

for label, probability in zip(labels, probabilities[0].tolist()):
    print(f"{label}: {probability:.3f}")
