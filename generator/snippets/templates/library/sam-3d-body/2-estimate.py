# Run inside the sam-3d-body folder
from sam_3d_body import SAM3DBodyEstimator, load_sam_3d_body_hf

model, model_cfg = load_sam_3d_body_hf({{ id | py }})

# Without a person detector the whole image is treated as one person;
# the repository's notebook shows how to add a detector, a segmenter and a field-of-view estimator.
estimator = SAM3DBodyEstimator(
    sam_3d_body_model=model,
    model_cfg=model_cfg,
    human_detector=None,
    human_segmentor=None,
    fov_estimator=None,
)

{{ inputs.image_file }}
outputs = estimator.process_one_image(image)
for person in outputs:
    print(person["pred_vertices"].shape, person["pred_cam_t"], person["focal_length"])
