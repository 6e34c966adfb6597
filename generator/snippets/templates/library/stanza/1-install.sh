pip install -U stanza
