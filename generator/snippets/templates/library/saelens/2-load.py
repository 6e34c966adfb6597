import torch
from sae_lens import SAE

# A repository can hold several SAEs, one per folder (a hook point such as "blocks.8.hook_resid_pre")
sae_id = "blocks.8.hook_resid_pre"  # the folder of the SAE you want, see the repository files
sae = SAE.from_pretrained(release={{ id | py }}, sae_id=sae_id, device="cpu")

# Encode activations into sparse features and reconstruct them.
# Use real activations of the base model at this hook point; random ones show the shapes.
activations = torch.randn(1, 8, sae.cfg.d_in)
features = sae.encode(activations)
reconstruction = sae.decode(features)
print(features.shape, reconstruction.shape)
