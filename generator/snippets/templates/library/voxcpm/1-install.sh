pip install -U voxcpm soundfile
