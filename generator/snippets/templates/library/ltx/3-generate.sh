{% set prompt = widget_text or "A red fox trots through fresh snow at dawn, its breath visible in the cold air. The camera tracks it at ground level, soft golden light behind the trees." %}
# Pick the file names you downloaded into models/ltx
CHECKPOINT="models/ltx/distilled.safetensors"  # the distilled checkpoint from this repository
UPSAMPLER="models/ltx/spatial-upscaler-x2.safetensors"  # the x2 spatial upscaler from this repository

uv run python -m ltx_pipelines.distilled \
    --distilled-checkpoint-path "$CHECKPOINT" \
    --spatial-upsampler-path "$UPSAMPLER" \
    --gemma-root models/gemma-3-12b \
    --seed 42 \
    --output-path output.mp4 \
    --prompt {{ prompt | sh }}
