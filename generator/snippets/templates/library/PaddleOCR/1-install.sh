{% set name = id | split("/") | last %}
# CPU build of PaddlePaddle; see https://www.paddlepaddle.org.cn/install for GPU builds
pip install -U paddlepaddle
{% if "PaddleOCR-VL" in name %}
pip install -U "paddleocr[doc-parser]"
{% else %}
pip install -U paddleocr
{% endif %}
