{% set lower_id = id | lower %}
{% set lvt = "lvt" in lower_id %}
{% set size = "large" if "large" in lower_id else "base" %}
{% set config = ("videoprism_lvt_public_v1_" if lvt else "videoprism_public_v1_") ~ size %}
{% set frames = 8 if size == "large" else 16 %}
import jax
import mediapy
import numpy as np
from videoprism import models as vp

# VideoPrism loads this checkpoint by its configuration name
model_name = {{ config | py }}
flax_model = vp.get_model(model_name)
loaded_state = vp.load_pretrained_weights(model_name)

# {{ frames }} frames of 288x288 RGB, values in [0, 1]
{{ inputs.video_file }}
frames = mediapy.resize_video(mediapy.read_video(video)[:{{ frames }}], (288, 288))
video_inputs = np.asarray(frames, dtype=np.float32)[None] / 255.0
{% if lvt %}
text_tokenizer = vp.load_text_tokenizer("c4_en")
text_queries = ["a person playing the guitar", "a dog running on the beach"]
text_ids, text_paddings = vp.tokenize_texts(text_tokenizer, text_queries)


@jax.jit
def forward_fn(inputs, text_token_ids, text_token_paddings):
    return flax_model.apply(loaded_state, inputs, text_token_ids, text_token_paddings, train=False)


video_embeddings, text_embeddings, _ = forward_fn(video_inputs, text_ids, text_paddings)
video_embeddings = video_embeddings / np.linalg.norm(video_embeddings, axis=-1, keepdims=True)
text_embeddings = text_embeddings / np.linalg.norm(text_embeddings, axis=-1, keepdims=True)
print(video_embeddings @ text_embeddings.T)  # cosine similarity of the video with each query
{% else %}


@jax.jit
def forward_fn(inputs):
    return flax_model.apply(loaded_state, inputs, train=False)


embeddings, _ = forward_fn(video_inputs)
print(embeddings.shape)  # (batch, frames * 16 * 16 tokens, channels)
{% endif %}
