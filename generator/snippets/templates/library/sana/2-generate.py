{% set name = id | split("/") | last %}
{% set size = "600M" if ("600M" in id and "1600M" not in id) else "1600M" %}
{% set res = "512" if "512px" in id else "1024" %}
# Run inside the Sana folder
import torch
from app.sana_pipeline import SanaPipeline
from torchvision.utils import save_image

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
generator = torch.Generator(device=device).manual_seed(42)

# The model configuration ships with the repository; the weights come from the Hub
sana = SanaPipeline({{ ("configs/sana_config/" ~ res ~ "ms/Sana_" ~ size ~ "_img" ~ res ~ ".yaml") | py }})
sana.from_pretrained({{ ("hf://" ~ id ~ "/checkpoints/" ~ name ~ ".pth") | py }})

image = sana(
    prompt="Astronaut in a jungle, cold color palette, muted colors, detailed, 8k",
    height={{ res }},
    width={{ res }},
    guidance_scale=5.0,
    num_inference_steps=18,
    generator=generator,
)
save_image(image, "sana.png", nrow=1, normalize=True, value_range=(-1, 1))
