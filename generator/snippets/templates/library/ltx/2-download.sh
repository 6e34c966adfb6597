# Model files from this repository (accept the model terms on the Hub first if it is gated)
hf download {{ id | sh }} --include "*distilled*.safetensors" "*spatial-upscaler-x2*.safetensors" --local-dir models/ltx
# Gemma 3 text encoder used by the LTX-2 pipelines
hf download google/gemma-3-12b-it-qat-q4_0-unquantized --local-dir models/gemma-3-12b
