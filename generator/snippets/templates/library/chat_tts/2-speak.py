{#- ChatTTS writes 24 kHz audio. -#}
import ChatTTS
import soundfile as sf
{% if id == "2Noise/ChatTTS" %}

chat = ChatTTS.Chat()
chat.load(source="huggingface", compile=False)  # downloads 2Noise/ChatTTS
{% else %}
from huggingface_hub import snapshot_download

chat = ChatTTS.Chat()
chat.load(source="custom", custom_path=snapshot_download(repo_id={{ id | py }}), compile=False)
{% endif %}

texts = [{{ (widget_text or "Hello, this speech was generated with ChatTTS.") | py }}]
wavs = chat.infer(texts)
sf.write("speech.wav", wavs[0].reshape(-1), 24000)
