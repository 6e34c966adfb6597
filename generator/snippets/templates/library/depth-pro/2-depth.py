import dataclasses

import depth_pro
from depth_pro.depth_pro import DEFAULT_MONODEPTH_CONFIG_DICT
from huggingface_hub import hf_hub_download

checkpoint = hf_hub_download(repo_id={{ id | py }}, filename="depth_pro.pt")
config = dataclasses.replace(DEFAULT_MONODEPTH_CONFIG_DICT, checkpoint_uri=checkpoint)
model, transform = depth_pro.create_model_and_transforms(config=config)
model.eval()

image, _, f_px = depth_pro.load_rgb("photo.jpg")  # path to your image
prediction = model.infer(transform(image), f_px=f_px)
depth = prediction["depth"]  # metric depth in meters
print(depth.shape, prediction["focallength_px"])
