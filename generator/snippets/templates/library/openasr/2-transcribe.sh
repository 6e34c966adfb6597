{% set parts = id | split("/") | list %}
{% set name = parts | last %}
AUDIO="audio.wav"  # path to your audio file
{% if parts[0] == "OpenASR" %}

# This pack is in the signed OpenASR catalog: install the q8 quantization, then transcribe offline
openasr pull {{ (name ~ ":q8") | sh }}
openasr transcribe "$AUDIO" -m {{ name | sh }}

# Subtitles and a JSON transcript with word timestamps
openasr transcribe "$AUDIO" -m {{ name | sh }} -f srt -f json --word-timestamps
{% else %}

# Download the .oasr pack(s) of this repository and transcribe with one of them
hf download {{ id | sh }} --include "*.oasr" --local-dir ./openasr-pack
PACK="./openasr-pack/model.oasr"  # one of the downloaded .oasr files
openasr transcribe "$AUDIO" --model-pack "$PACK"

# Subtitles and a JSON transcript with word timestamps
openasr transcribe "$AUDIO" --model-pack "$PACK" -f srt -f json --word-timestamps
{% endif %}
