{#- Dia reads a script whose turns start with speaker tags [S1] and [S2]. -#}
from dia.model import Dia

model = Dia.from_pretrained({{ id | py }}, compute_dtype="float16")

script = {{ (widget_text or "[S1] Did you try the new model? [S2] I did, it even laughs. (laughs) [S1] Impressive.") | py }}
audio = model.generate(script, use_torch_compile=False, verbose=True)
model.save_audio("dialogue.mp3", audio)
