{#- DAM describes the region of an image given by a mask; the query must hold
    the <image> placeholder. -#}
from dam import DescribeAnythingModel, disable_torch_init
from PIL import Image

disable_torch_init()
model = DescribeAnythingModel(model_path={{ id | py }}, conv_mode="v1", prompt_mode="full+focal_crop")

image = Image.open("photo.jpg").convert("RGB")  # path to your image
mask = Image.open("mask.png").convert("L")  # your mask: white where the region is
query = "<image>\nDescribe the masked region in detail."
description = model.get_description(image, mask, query, streaming=False, temperature=0.2, top_p=0.5, max_new_tokens=512)
print(description)
