{#- Derm Foundation is a TensorFlow SavedModel that takes a serialized
    tf.train.Example holding a PNG and returns a 6144-value embedding. -#}
import io

import tensorflow as tf
from huggingface_hub import snapshot_download
from PIL import Image

model = tf.saved_model.load(snapshot_download(repo_id={{ id | py }}))
infer = model.signatures["serving_default"]

image = Image.open("skin.jpg").convert("RGB")  # your photo of a skin condition
buffer = io.BytesIO()
image.save(buffer, format="PNG")
example = tf.train.Example(features=tf.train.Features(feature={
    "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[buffer.getvalue()])),
}))

output = infer(inputs=tf.constant([example.SerializeToString()]))
embedding = output["embedding"].numpy().flatten()
print(embedding.shape)
