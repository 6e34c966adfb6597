# Run inside the sam-3d-objects folder, after downloading the checkpoints to checkpoints/hf
import sys

sys.path.append("notebook")
from inference import Inference, load_image, load_single_mask  # noqa: E402

inference = Inference("checkpoints/hf/pipeline.yaml", compile=False)

# An example image from the repository and the mask of one object in it
scene = "notebook/images/shutterstock_stylish_kidsroom_1640806567"
image = load_image(f"{scene}/image.png")
mask = load_single_mask(scene, index=14)

output = inference(image, mask, seed=42)
output["gs"].save_ply("object.ply")  # the object as a Gaussian splat
