# Run inside the renderformer folder, after converting a scene to HDF5 (see the previous example)
import h5py
import imageio.v3 as iio
import torch
from renderformer import RenderFormerRenderingPipeline

device = "cuda" if torch.cuda.is_available() else "cpu"
dtype = torch.float16 if device == "cuda" else torch.float32

pipeline = RenderFormerRenderingPipeline.from_pretrained({{ id | py }})
pipeline.to(device)

scene_file = "tmp/cbox/cbox.h5"  # your converted scene
with h5py.File(scene_file, "r") as f:
    scene = {key: torch.from_numpy(f[key][:]).float().to(device) for key in ["triangles", "texture", "vn", "c2w", "fov"]}

# Add a batch dimension of one scene
triangles = scene["triangles"][None]
rendered = pipeline(
    triangles=triangles,
    texture=scene["texture"][None],
    mask=torch.ones(triangles.shape[:2], dtype=torch.bool, device=device),
    vn=scene["vn"][None],
    c2w=scene["c2w"][None],
    fov=scene["fov"].reshape(1, -1, 1),
    resolution=512,
    torch_dtype=dtype,
)
print(rendered.shape)  # (scenes, views, height, width, 3), linear HDR

# Quick preview of the first view with a simple gamma curve
preview = rendered[0, 0].float().clamp(0, 1).pow(1 / 2.2).mul(255).byte().cpu().numpy()
iio.imwrite("view_0.png", preview)
