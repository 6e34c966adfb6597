pip install -U open_clip_torch
