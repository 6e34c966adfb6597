{#- Legacy Keras 2 models; from_pretrained_keras needs tf_keras (or
    keras<3) and was removed in huggingface_hub 1.0. -#}
from huggingface_hub import from_pretrained_keras

model = from_pretrained_keras({{ id | py }})
model.summary()
