{% set prompt = widget_text or "A little girl in a green dress crouches by the daisies and photographs her brown and white dog with a yellow toy camera." %}
# Subject-to-video with up to 4 reference images (run inside the Phantom folder)
REFS="examples/ref1.png,examples/ref2.png"  # comma-separated paths to your reference images

python generate.py \
    --task s2v-1.3B \
    --size "832*480" \
    --ckpt_dir ./Wan2.1-T2V-1.3B \
    --phantom_ckpt ./Phantom-Wan-Models/Phantom-Wan-1.3B.pth \
    --ref_image "$REFS" \
    --prompt {{ prompt | sh }} \
    --base_seed 42
