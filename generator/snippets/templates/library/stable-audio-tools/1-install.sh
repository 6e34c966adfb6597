pip install -U stable-audio-tools
