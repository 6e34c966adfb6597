pip install -U bertopic
