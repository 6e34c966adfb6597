pip install git+https://github.com/nari-labs/dia.git
