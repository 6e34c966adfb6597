# SEED-Story runs from its repository (PyTorch 2.1 with CUDA recommended)
git clone https://github.com/TencentARC/SEED-Story.git
cd SEED-Story
pip install -r requirements.txt

# Tokenizer, de-tokenizer and the story MLLM go under ./pretrained, next to the two base models
hf download {{ id | sh }} --local-dir pretrained
hf download stabilityai/stable-diffusion-xl-base-1.0 --local-dir pretrained/stable-diffusion-xl-base-1.0
hf download Qwen/Qwen-VL-Chat --local-dir pretrained/Qwen-VL-Chat
python3 src/tools/reload_qwen_vit.py  # extracts the Qwen-VL visual encoder weights
