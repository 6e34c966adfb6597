# Install Lemonade from https://lemonade-server.ai, then:
lemonade pull {{ model_ref | sh }}
lemonade run {{ ("user." ~ name ~ ("-" ~ quant if quant else "")) | sh }}
