{#- DiffusionKit runs diffusion models with MLX on Apple silicon. Spec
    constants: 4 steps and cfg weight 0 for flux, 50 steps and cfg weight 5
    otherwise; 512 by 512 images. -#}
{% set is_flux = "flux" in tags or "flux" in id | lower %}
{% if is_flux %}
from diffusionkit.mlx import FluxPipeline

pipeline = FluxPipeline(
    shift=1.0,
    model_version={{ id | py }},
    low_memory_mode=True,
    a16=True,
    w16=True,
)
{% else %}
from diffusionkit.mlx import DiffusionPipeline

pipeline = DiffusionPipeline(
    shift=3.0,
    use_t5=False,
    model_version={{ id | py }},
    low_memory_mode=True,
    a16=True,
    w16=True,
)
{% endif %}

height = 512
width = 512
image, _ = pipeline.generate_image(
    {{ (widget_text or "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k") | py }},
    cfg_weight={{ "0.0" if is_flux else "5.0" }},
    num_steps={{ 4 if is_flux else 50 }},
    latent_size=(height // 8, width // 8),
)
image.save("output.png")
