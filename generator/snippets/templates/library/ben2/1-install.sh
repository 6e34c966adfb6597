pip install git+https://github.com/PramaLLC/BEN2.git
