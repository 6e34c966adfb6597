pip install -U git+https://github.com/pq-yang/MatAnyone
