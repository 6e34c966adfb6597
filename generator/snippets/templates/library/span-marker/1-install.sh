pip install -U span_marker
