# RenderFormer is used from its repository (PyTorch 2.0+ required; Flash Attention is optional)
git clone https://github.com/microsoft/renderformer
cd renderformer
pip install -r requirements.txt
python3 -c "import imageio; imageio.plugins.freeimage.download()"  # HDR (.exr) image support
