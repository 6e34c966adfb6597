python -m pip install flexray
