{% set lower_id = id | lower %}
{% set vocoders = {"baker": "tensorspeech/tts-mb_melgan-baker-ch", "kss": "tensorspeech/tts-mb_melgan-kss-ko", "synpaflex": "tensorspeech/tts-mb_melgan-synpaflex-fr", "thorsten": "tensorspeech/tts-mb_melgan-thorsten-ger"} %}
{% set ns = namespace(vocoder="tensorspeech/tts-mb_melgan-ljspeech-en") %}
{% for dataset, repo in vocoders | items %}
{% if dataset in lower_id %}
{% set ns.vocoder = repo %}
{% endif %}
{% endfor %}
{% set rate = 24000 if "baker" in lower_id else 22050 %}
{% set is_vocoder = "mel-to-wav" in tags or "melgan" in lower_id or "hifigan" in lower_id %}
{% if is_vocoder %}
import numpy as np
import soundfile as sf
import tensorflow as tf
from tensorflow_tts.inference import TFAutoModel

# A vocoder: turns a mel-spectrogram (from a text-to-mel model) into a waveform
vocoder = TFAutoModel.from_pretrained({{ id | py }})

mel = np.load("mel.npy")  # your mel-spectrogram, shape (frames, 80)
audio = vocoder.inference(tf.expand_dims(tf.convert_to_tensor(mel, dtype=tf.float32), 0))[0, :, 0]
sf.write("output.wav", audio.numpy(), {{ rate }}, "PCM_16")
{% else %}
import soundfile as sf
import tensorflow as tf
from tensorflow_tts.inference import AutoProcessor, TFAutoModel

# Text to mel-spectrogram with this model, then mel-spectrogram to waveform with a vocoder
processor = AutoProcessor.from_pretrained({{ id | py }})
text2mel = TFAutoModel.from_pretrained({{ id | py }})
vocoder = TFAutoModel.from_pretrained({{ ns.vocoder | py }})

input_ids = processor.text_to_sequence({{ (widget_text or "Text to speech turns written words into natural sounding audio.") | py }})
input_ids = tf.expand_dims(tf.convert_to_tensor(input_ids, dtype=tf.int32), 0)
speaker_ids = tf.convert_to_tensor([0], dtype=tf.int32)
{% if "tacotron" in lower_id %}
_, mel, _, _ = text2mel.inference(
    input_ids=input_ids,
    input_lengths=tf.convert_to_tensor([input_ids.shape[1]], dtype=tf.int32),
    speaker_ids=speaker_ids,
)
{% elif "fastspeech2" in lower_id %}
_, mel, _, _, _ = text2mel.inference(
    input_ids=input_ids,
    speaker_ids=speaker_ids,
    speed_ratios=tf.convert_to_tensor([1.0], dtype=tf.float32),
    f0_ratios=tf.convert_to_tensor([1.0], dtype=tf.float32),
    energy_ratios=tf.convert_to_tensor([1.0], dtype=tf.float32),
)
{% else %}
_, mel, _ = text2mel.inference(
    input_ids=input_ids,
    speaker_ids=speaker_ids,
    speed_ratios=tf.convert_to_tensor([1.0], dtype=tf.float32),
)
{% endif %}

audio = vocoder.inference(mel)[0, :, 0]
sf.write("output.wav", audio.numpy(), {{ rate }}, "PCM_16")
{% endif %}
