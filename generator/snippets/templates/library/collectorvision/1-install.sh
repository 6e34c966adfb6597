pip install git+https://github.com/HanClinto/CollectorVision.git
