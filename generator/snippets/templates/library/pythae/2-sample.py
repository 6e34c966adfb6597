from pythae.models import AutoModel
from pythae.samplers import NormalSampler

# The trained autoencoder is stored with pickled parts, hence allow_pickle=True
model = AutoModel.load_from_hf_hub(hf_hub_path={{ id | py }}, allow_pickle=True)

# Draw new samples by decoding points from the standard normal prior
sampler = NormalSampler(model=model)
samples = sampler.sample(num_samples=16)
print(samples.shape)
