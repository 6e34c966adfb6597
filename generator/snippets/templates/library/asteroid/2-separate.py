from asteroid.models import BaseModel

model = BaseModel.from_pretrained({{ id | py }})

mixture = "mixture.wav"  # your file
# Writes one file per estimated source next to the input: mixture_est1.wav, ...
model.separate(mixture, resample=True, force_overwrite=True)
