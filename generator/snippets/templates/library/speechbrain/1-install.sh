pip install -U speechbrain
