# Download the model and the two models it builds on (FLUX.1-dev is gated: accept its license and run `hf auth login`)
hf download {{ id | sh }} --local-dir models/UniWorld
hf download black-forest-labs/FLUX.1-dev --local-dir models/FLUX.1-dev
hf download google/siglip2-so400m-patch16-512 --local-dir models/siglip2-so400m-patch16-512

# Chat in the terminal: understanding, text-to-image generation and image editing
python -m univa.serve.cli \
    --model_path models/UniWorld \
    --flux_path models/FLUX.1-dev \
    --siglip_path models/siglip2-so400m-patch16-512

# Or start the Gradio web UI with the same arguments: python -m univa.serve.gradio_web_server ...
