pip install -U espnet espnet_model_zoo soundfile
