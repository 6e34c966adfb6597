from matanyone import InferenceCore

processor = InferenceCore({{ id | py }})

video = "input.mp4"  # path to your video
mask = "first_frame_mask.png"  # mask of the target in the first frame

# Writes the foreground video and the alpha matte video to ./outputs
foreground_path, alpha_path = processor.process_video(
    input_path=video,
    mask_path=mask,
    output_path="outputs",
)
print(foreground_path, alpha_path)
