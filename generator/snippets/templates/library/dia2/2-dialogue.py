{#- Dia2 streams speech from a script with [S1]/[S2] speaker tags. -#}
from dia2 import Dia2, GenerationConfig, SamplingConfig

model = Dia2.from_repo({{ id | py }}, device="cuda", dtype="bfloat16")
config = GenerationConfig(
    cfg_scale=2.0,
    audio=SamplingConfig(temperature=0.8, top_k=50),
)

script = {{ (widget_text or "[S1] Welcome back to the show. [S2] Thanks, glad to be here!") | py }}
model.generate(script, config=config, output_wav="dialogue.wav", verbose=True)
