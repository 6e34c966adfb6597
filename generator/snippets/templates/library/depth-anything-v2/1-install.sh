# The model code lives in the repository; run the example from its folder
git clone https://github.com/DepthAnything/Depth-Anything-V2
cd Depth-Anything-V2
pip install -r requirements.txt huggingface_hub
