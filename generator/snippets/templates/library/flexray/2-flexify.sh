# Segment an X-ray (PNG, JPEG, TIFF, BMP; DICOM with flexray[dicom]);
# writes image_masks.npy, image_probabilities.npy, image_logits.npy and label_names.json
flexify --model-id {{ id | sh }} --input ./image.png --output-dir ./predictions
