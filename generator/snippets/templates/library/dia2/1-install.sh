pip install git+https://github.com/nari-labs/dia2.git
