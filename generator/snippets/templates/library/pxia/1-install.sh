pip install -U pxia
