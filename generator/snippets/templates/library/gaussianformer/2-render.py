import torch
from gaussianformer import GaussianFormerRenderingPipeline, load_ply
from gaussianformer.utils.cameras import orbit

pipeline = GaussianFormerRenderingPipeline.from_pretrained({{ id | py }}).to("cuda")

gaussians = load_ply("object.ply", up="z")  # your 3D Gaussian Splatting PLY; up axis y, z or -y
cameras = torch.from_numpy(orbit(8, 1.7))  # 8 camera-to-world matrices around the object
images = pipeline(gaussians, cameras, fov=45.0)  # one 512x512 RGB image per camera
print(images.shape)
