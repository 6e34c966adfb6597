pip install -U peft transformers accelerate torch
