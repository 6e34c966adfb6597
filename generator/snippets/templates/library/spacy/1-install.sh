{% set name = id | split("/") | last %}
pip install {{ ("https://huggingface.co/" ~ id ~ "/resolve/main/" ~ name ~ "-any-py3-none-any.whl") | sh }}
