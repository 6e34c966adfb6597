{% set is_model = "pyannote-audio-model" in tags and "pyannote-audio-pipeline" not in tags %}
{% if is_model and pipeline_tag == "voice-activity-detection" %}
# Gated model: accept its conditions on the Hub, then log in once with `hf auth login`
from pyannote.audio import Model
from pyannote.audio.pipelines import VoiceActivityDetection

model = Model.from_pretrained({{ id | py }})
pipeline = VoiceActivityDetection(segmentation=model)
pipeline.instantiate({"min_duration_on": 0.0, "min_duration_off": 0.0})

{{ inputs.audio_file }}
speech = pipeline(audio)
for segment in speech.get_timeline().support():
    print(f"speech from {segment.start:.1f}s to {segment.end:.1f}s")
{% elif is_model %}
# Gated model: accept its conditions on the Hub, then log in once with `hf auth login`
from pyannote.audio import Inference, Model

model = Model.from_pretrained({{ id | py }})
inference = Inference(model)

{{ inputs.audio_file }}
output = inference(audio)
print(output)
{% else %}
# Gated pipeline: accept its conditions on the Hub, then log in once with `hf auth login`
from pyannote.audio import Pipeline

pipeline = Pipeline.from_pretrained({{ id | py }})

{{ inputs.audio_file }}
output = pipeline(audio)
# pyannote.audio 4 returns diarization results in an output object; 3.x returns the annotation itself
annotation = getattr(output, "speaker_diarization", output)
for turn, _, label in annotation.itertracks(yield_label=True):
    print(f"{turn.start:.1f}s - {turn.end:.1f}s: {label}")
{% endif %}
