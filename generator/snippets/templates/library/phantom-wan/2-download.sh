# Phantom-Wan reuses the VAE and text encoder of Wan2.1-T2V-1.3B
hf download Wan-AI/Wan2.1-T2V-1.3B --local-dir ./Wan2.1-T2V-1.3B
# Phantom-Wan weights from this repository
hf download {{ id | sh }} --local-dir ./Phantom-Wan-Models
