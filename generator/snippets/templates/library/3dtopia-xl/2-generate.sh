# Run inside the 3DTopia-XL folder: download the image-conditioned DiT and the VAE (fp16)
hf download {{ id | sh }} model_sview_dit_fp16.pt model_vae_fp16.pt --local-dir pretrained

# Generate a textured 3D asset (GLB) for every image in the input_dir set in the config;
# ddim steps, cfg scale, seed and mesh export options are set there too
python inference.py ./configs/inference_dit.yml

# Or use the Gradio demo, which fetches the weights itself
python app.py
