{% if "realtime" in (id | lower) %}
# Run inside the VibeVoice folder: stream speech for a text file with a preset voice
python demo/realtime_model_inference_from_file.py \
    --model_path {{ id | sh }} \
    --txt_path demo/text_examples/1p_vibevoice.txt \
    --speaker_name Carter
{% else %}
# Run inside the VibeVoice folder: a podcast-style script, one "Speaker N:" line per turn
python demo/inference_from_file.py \
    --model_path {{ id | sh }} \
    --txt_path demo/text_examples/2p_music.txt \
    --speaker_names Alice Frank

# Or try it in a browser
python demo/gradio_demo.py --model_path {{ id | sh }} --share
{% endif %}
