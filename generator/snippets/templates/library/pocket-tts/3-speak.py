import scipy.io.wavfile
from pocket_tts import TTSModel

# load_model() fetches the released Pocket TTS weights from the Hub
# (kyutai/pocket-tts); other weights need a local YAML config.
tts_model = TTSModel.load_model()

# A bundled voice ("alba"), or a wav file of the voice to clone
voice_state = tts_model.get_state_for_audio_prompt("alba")
audio = tts_model.generate_audio(voice_state, {{ (widget_text or "Hello world, this is Pocket TTS.") | py }})
scipy.io.wavfile.write("output.wav", tts_model.sample_rate, audio.numpy())
