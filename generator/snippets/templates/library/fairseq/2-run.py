{% if pipeline_tag == "text-to-speech" %}
import soundfile as sf
from fairseq.checkpoint_utils import load_model_ensemble_and_task_from_hf_hub
from fairseq.models.text_to_speech.hub_interface import TTSHubInterface

models, cfg, task = load_model_ensemble_and_task_from_hf_hub(
    {{ id | py }},
    arg_overrides={"vocoder": "hifigan", "fp16": False},
)
model = models[0]
TTSHubInterface.update_cfg_with_data_cfg(cfg, task.data_cfg)
generator = task.build_generator([model], cfg)

text = {{ (widget_text or "Hello, this is a test run.") | py }}
sample = TTSHubInterface.get_model_input(task, text)
wav, rate = TTSHubInterface.get_prediction(task, model, generator, sample)
sf.write("speech.wav", wav.cpu().numpy(), rate)
{% elif pipeline_tag == "audio-to-audio" %}
import torchaudio
from fairseq.checkpoint_utils import load_model_ensemble_and_task_from_hf_hub
from fairseq.models.speech_to_text.hub_interface import S2THubInterface

models, cfg, task = load_model_ensemble_and_task_from_hf_hub(
    {{ id | py }},
    arg_overrides={"config_yaml": "config.yaml", "task": "speech_to_text"},
)
model = models[0].cpu()
cfg["task"].cpu = True
generator = task.build_generator([model], cfg)

audio, _ = torchaudio.load("speech.wav")  # your file, 16 kHz mono
sample = S2THubInterface.get_model_input(task, audio)
units = S2THubInterface.get_prediction(task, model, generator, sample)
print(units)  # discrete speech units; a unit vocoder turns them into a waveform
{% else %}
from fairseq.checkpoint_utils import load_model_ensemble_and_task_from_hf_hub

models, cfg, task = load_model_ensemble_and_task_from_hf_hub({{ id | py }})
print(models[0])
{% endif %}
