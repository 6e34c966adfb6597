# Run inside the LVFace folder
import glob
import os

from huggingface_hub import snapshot_download
from inference_onnx import LVFaceONNXInferencer

variant = "LVFace-B_Glint360K"  # folder of the weights to use: LVFace-T/S/B/L_Glint360K
model_dir = snapshot_download(repo_id={{ id | py }}, allow_patterns=[f"{variant}/*.onnx"])
model_path = glob.glob(os.path.join(model_dir, variant, "*.onnx"))[0]

inferencer = LVFaceONNXInferencer(model_path=model_path, use_gpu=False)

# Two aligned face crops to compare
face_a = "face_a.jpg"  # your first image
face_b = "face_b.jpg"  # your second image
embedding_a = inferencer.infer_from_image(face_a)
embedding_b = inferencer.infer_from_image(face_b)
print(f"cosine similarity: {inferencer.calculate_similarity(embedding_a, embedding_b):.4f}")
