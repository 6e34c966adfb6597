import torch
from chronos import BaseChronosPipeline

pipeline = BaseChronosPipeline.from_pretrained({{ id | py }}, device_map="cpu")  # or "cuda"

# Your history, oldest value first (here: monthly values with a yearly cycle)
context = torch.tensor([112.0, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118,
                        115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140])

quantiles, mean = pipeline.predict_quantiles(context, prediction_length=12, quantile_levels=[0.1, 0.5, 0.9])
print("median forecast:", quantiles[0, :, 1])
print("80% interval:", quantiles[0, :, 0], quantiles[0, :, 2])
