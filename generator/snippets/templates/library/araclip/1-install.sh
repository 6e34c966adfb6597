pip install git+https://github.com/Arabic-Clip/Araclip.git
