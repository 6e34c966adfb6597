# Full-duplex speech chat in the browser at http://localhost:8998
python -m moshi.server --hf-repo {{ id | sh }}
