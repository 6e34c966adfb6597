{% set lid = id | lower %}
{% set version = "V1" if "0.1" in lid else ("V2" if ("0.2" in lid or "0.3" in lid) else "V3") %}
import outetts

interface = outetts.Interface(
    config=outetts.ModelConfig(
        model_path={{ id | py }},
        tokenizer_path={{ id | py }},
        interface_version=outetts.InterfaceVersion.{{ version }},
        backend=outetts.Backend.HF,
    )
)

# A bundled voice, or your own: interface.create_speaker("voice.wav")
speaker = interface.load_default_speaker("EN-FEMALE-1-NEUTRAL")

output = interface.generate(
    config=outetts.GenerationConfig(
        text={{ (widget_text or "Hello! This voice was generated with OuteTTS.") | py }},
        generation_type=outetts.GenerationType.CHUNKED,
        speaker=speaker,
        sampler_config=outetts.SamplerConfig(temperature=0.4),
    )
)
output.save("output.wav")
