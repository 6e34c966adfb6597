pip install -U git+https://github.com/THU-MIG/yolov10.git
