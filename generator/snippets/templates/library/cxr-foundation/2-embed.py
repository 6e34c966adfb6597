{#- CXR Foundation is a set of TensorFlow SavedModels; ELIXR-C turns a chest
    X-ray, serialized as a tf.train.Example holding a PNG, into image embeddings. -#}
import io
import os

import numpy as np
import tensorflow as tf
from huggingface_hub import snapshot_download
from PIL import Image

model_dir = snapshot_download(repo_id={{ id | py }}, allow_patterns=["elixr-c-v2-pooled/*"])
elixr_c = tf.saved_model.load(os.path.join(model_dir, "elixr-c-v2-pooled"))
infer = elixr_c.signatures["serving_default"]

# A grayscale chest X-ray encoded as PNG inside a tf.train.Example
image = Image.open("chest_xray.png").convert("L")  # your file
buffer = io.BytesIO()
image.save(buffer, format="PNG")
example = tf.train.Example(features=tf.train.Features(feature={
    "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[buffer.getvalue()])),
    "image/format": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"png"])),
}))

output = infer(input_example=tf.constant([example.SerializeToString()]))
embedding = np.asarray(output["feature_maps_0"])
print(embedding.shape)
