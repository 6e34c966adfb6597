# Run inside the renderformer folder: turn an example scene description into the HDF5 input format
python3 scene_processor/convert_scene.py examples/cbox.json --output_h5_path tmp/cbox/cbox.h5

# Render it (writes an HDR .exr and a tone-mapped .png per camera view)
python3 infer.py --h5_file tmp/cbox/cbox.h5 --model_id {{ id | sh }} --output_dir output/cbox/
