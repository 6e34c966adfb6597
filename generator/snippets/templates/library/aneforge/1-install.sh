# Apple Silicon Mac with macOS 14 or later
pip install -U "aneforge[models]"
