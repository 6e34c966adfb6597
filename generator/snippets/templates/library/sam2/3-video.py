import numpy as np
import torch
from sam2.sam2_video_predictor import SAM2VideoPredictor

predictor = SAM2VideoPredictor.from_pretrained({{ id | py }})

{{ inputs.video_file }}
device_type = "cuda" if torch.cuda.is_available() else "cpu"
with torch.inference_mode(), torch.autocast(device_type, dtype=torch.bfloat16):
    state = predictor.init_state(video)

    # Click once on the object in the first frame, then track it through the video
    predictor.add_new_points_or_box(
        inference_state=state,
        frame_idx=0,
        obj_id=1,
        points=np.array([[500, 375]], dtype=np.float32),
        labels=np.array([1], dtype=np.int32),
    )
    for frame_idx, object_ids, mask_logits in predictor.propagate_in_video(state):
        print(frame_idx, object_ids, (mask_logits > 0).sum().item())
