npm i @huggingface/transformers
