{#- diffusers: the pipeline depends on what the repository holds. Adapters
    (ControlNet, LoRA, textual inversion) are loaded on top of their base
    model; full pipelines by task. -#}
{% set default_prompt = "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k" %}
{% set class_tag = tags | select("startingwith", "diffusers:") | first %}
{% set pipeline_class = (config.diffusers._class_name | ident) or ((class_tag[10:] | ident) if class_tag else none) %}
{% set is_flux = "flux" in tags or (pipeline_class and "Flux" in pipeline_class) %}
{% set adapter_tags = tags | select("startingwith", "base_model:adapter:") | list %}
{% if "controlnet" in tags %}
{% set mode = "controlnet" %}
{% elif "lora" in tags %}
{% set mode = "lora" %}
{% elif "textual_inversion" in tags %}
{% set mode = "textual_inversion" %}
{% elif adapter_tags and base_model and not pipeline_class %}
{% set mode = "lora" %}
{% elif "inpainting" in tags or (pipeline_class and "Inpaint" in pipeline_class) %}
{% set mode = "inpainting" %}
{% elif is_flux and pipeline_tag in [none, "text-to-image"] %}
{% set mode = "flux" %}
{% else %}
{% set mode = pipeline_tag %}
{% endif %}
{#- Adapters: the prompt carries the trigger word when the card gives one. -#}
{% if instance_prompt and widget_text and instance_prompt in widget_text %}
{% set adapter_prompt = widget_text %}
{% elif instance_prompt %}
{% set adapter_prompt = instance_prompt ~ ", " ~ default_prompt %}
{% else %}
{% set adapter_prompt = widget_text or default_prompt %}
{% endif %}
{% set dtype = "torch.bfloat16" if is_flux else "torch.float16" %}
{% macro base_line() -%}
{% if base_model -%}
base_model = {{ base_model | py }}
{%- else -%}
base_model = "stabilityai/stable-diffusion-xl-base-1.0"  # replace with the base model this adapter was trained for
{%- endif %}
{%- endmacro %}
{% if mode == "controlnet" %}
import torch
{% if is_flux %}
from diffusers import AutoPipelineForText2Image, FluxControlNetModel
{% else %}
from diffusers import AutoPipelineForText2Image, ControlNetModel
{% endif %}
from diffusers.utils import load_image

{{ base_line() }}
controlnet = {{ "FluxControlNetModel" if is_flux else "ControlNetModel" }}.from_pretrained({{ id | py }}, torch_dtype={{ dtype }})
pipe = AutoPipelineForText2Image.from_pretrained(base_model, controlnet=controlnet, torch_dtype={{ dtype }})
pipe.to("cuda")

control_image = load_image("control.png")  # your conditioning image, e.g. an edge map
prompt = {{ (widget_text or default_prompt) | py }}
image = pipe(prompt, {{ "control_image" if is_flux else "image" }}=control_image).images[0]
image.save("output.png")
{% elif mode in ["lora", "textual_inversion"] %}
import torch
from diffusers import DiffusionPipeline

{{ base_line() }}
pipe = DiffusionPipeline.from_pretrained(base_model, torch_dtype={{ dtype }})
pipe.to("cuda")
{% if mode == "lora" %}
pipe.load_lora_weights({{ id | py }})
{% else %}
pipe.load_textual_inversion({{ id | py }})
{% endif %}

prompt = {{ adapter_prompt | py }}
image = pipe(prompt).images[0]
image.save("output.png")
{% elif mode == "inpainting" %}
import torch
from diffusers import AutoPipelineForInpainting
from diffusers.utils import load_image

pipe = AutoPipelineForInpainting.from_pretrained({{ id | py }}, torch_dtype={{ dtype }})
pipe.to("cuda")

init_image = load_image("photo.png")  # the image to edit
mask_image = load_image("mask.png")  # white where the image should be repainted
prompt = {{ (widget_text or default_prompt) | py }}
image = pipe(prompt=prompt, image=init_image, mask_image=mask_image).images[0]
image.save("output.png")
{% elif mode == "flux" %}
import torch
from diffusers import FluxPipeline

pipe = FluxPipeline.from_pretrained({{ id | py }}, torch_dtype=torch.bfloat16)
pipe.to("cuda")

prompt = {{ (widget_text or default_prompt) | py }}
{% if "schnell" in id | lower %}
image = pipe(prompt, guidance_scale=0.0, num_inference_steps=4).images[0]
{% else %}
image = pipe(prompt, guidance_scale=3.5, num_inference_steps=28).images[0]
{% endif %}
image.save("output.png")
{% elif mode == "text-to-image" %}
import torch
from diffusers import DiffusionPipeline

pipe = DiffusionPipeline.from_pretrained({{ id | py }}, torch_dtype={{ dtype }})
pipe.to("cuda")

prompt = {{ (widget_text or default_prompt) | py }}
image = pipe(prompt).images[0]
image.save("output.png")
{% elif mode == "image-to-image" %}
import torch
from diffusers import DiffusionPipeline
from diffusers.utils import load_image

pipe = DiffusionPipeline.from_pretrained({{ id | py }}, torch_dtype={{ dtype }})
pipe.to("cuda")

init_image = load_image("photo.png")  # path or URL of your image
prompt = {{ (widget_text or "Turn it into a watercolor painting") | py }}
image = pipe(prompt, image=init_image).images[0]
image.save("output.png")
{% elif mode == "text-to-video" %}
import torch
from diffusers import DiffusionPipeline
from diffusers.utils import export_to_video

pipe = DiffusionPipeline.from_pretrained({{ id | py }}, torch_dtype={{ dtype }})
pipe.to("cuda")

prompt = {{ (widget_text or default_prompt) | py }}
frames = pipe(prompt).frames[0]
export_to_video(frames, "output.mp4")
{% elif mode == "image-to-video" %}
import torch
from diffusers import DiffusionPipeline
from diffusers.utils import export_to_video, load_image

pipe = DiffusionPipeline.from_pretrained({{ id | py }}, torch_dtype={{ dtype }})
pipe.to("cuda")

image = load_image("photo.png")  # the first frame of the video
{% if pipeline_class == "StableVideoDiffusionPipeline" %}
frames = pipe(image, decode_chunk_size=8).frames[0]
{% else %}
prompt = {{ (widget_text or default_prompt) | py }}
frames = pipe(image=image, prompt=prompt).frames[0]
{% endif %}
export_to_video(frames, "output.mp4", fps=7)
{% elif mode == "unconditional-image-generation" %}
from diffusers import DiffusionPipeline

pipe = DiffusionPipeline.from_pretrained({{ id | py }})
image = pipe().images[0]
image.save("output.png")
{% else %}
from diffusers import DiffusionPipeline

pipe = DiffusionPipeline.from_pretrained({{ id | py }})
{% endif %}
