# Run inside the SEED-Story folder: continue a story with interleaved text and images
python3 src/inference/gen_george.py

# Story visualization with multimodal attention sink, for long stories
python3 src/inference/vis_george_sink.py
