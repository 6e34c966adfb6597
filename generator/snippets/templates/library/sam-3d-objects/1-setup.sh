# SAM 3D Objects is used from its repository, with a conda/mamba environment
git clone --recursive https://github.com/facebookresearch/sam-3d-objects.git
cd sam-3d-objects
mamba env create -f environments/default.yml
mamba activate sam3d-objects
export PIP_EXTRA_INDEX_URL="https://pypi.ngc.nvidia.com https://download.pytorch.org/whl/cu121"
pip install -e '.[dev]'
pip install -e '.[p3d]'
export PIP_FIND_LINKS="https://nvidia-kaolin.s3.us-east-2.amazonaws.com/torch-2.5.1_cu121.html"
pip install -e '.[inference]'
./patching/hydra

# Download the checkpoints (gated: accept the license on the model page and run `hf auth login` first)
hf download {{ id | sh }} --repo-type model --local-dir checkpoints/hf-download
mv checkpoints/hf-download/checkpoints checkpoints/hf
rm -rf checkpoints/hf-download
