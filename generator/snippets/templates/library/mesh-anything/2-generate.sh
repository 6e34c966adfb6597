{% set v2 = "v2" in (id | lower) %}
{% if not v2 %}
# Run inside the MeshAnything folder; main.py fetches the released weights from the Hub.
# Turn a dense mesh into an artist-style mesh (up to 800 faces)
python main.py --input_path examples/wand.ply --out_dir mesh_output --input_type mesh

# Or start from a point cloud with normals (.npy, shape N x 6)
python main.py --input_dir pc_examples --out_dir pc_output --input_type pc_normal
{% endif %}
