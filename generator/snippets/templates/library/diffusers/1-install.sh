pip install -U diffusers transformers accelerate torch{{ " peft" if "lora" in tags }}
