pip install -U paddlepaddle paddlenlp
