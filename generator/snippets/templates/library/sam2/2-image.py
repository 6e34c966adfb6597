import numpy as np
import torch
from PIL import Image
from sam2.sam2_image_predictor import SAM2ImagePredictor

predictor = SAM2ImagePredictor.from_pretrained({{ id | py }})

{{ inputs.image_file }}
point = np.array([[500, 375]])  # (x, y) of a pixel on the object to segment
label = np.array([1])  # 1 marks a foreground point

device_type = "cuda" if torch.cuda.is_available() else "cpu"
with torch.inference_mode(), torch.autocast(device_type, dtype=torch.bfloat16):
    predictor.set_image(np.array(Image.open(image).convert("RGB")))
    masks, scores, _ = predictor.predict(point_coords=point, point_labels=label)
print(masks.shape, scores)
