# Run inside the VFIMamba folder: the checkpoints go to ./ckpt
hf download {{ id | sh }} --include "ckpt/*" --local-dir .

# Insert one frame between example/im1.png and example/im2.png (writes example/out_2x.gif)
python demo_2x.py --model VFIMamba

# Or insert 7 frames (8x), with the faster VFIMamba_S model
python demo_Nx.py --n 8 --model VFIMamba_S

# For 2K inputs estimate the flow at half resolution (0.25 for 4K)
python demo_2x.py --model VFIMamba --scale 0.5
