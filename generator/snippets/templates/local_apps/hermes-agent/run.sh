{{ llama.start_server }}
# Then, in another terminal, install Hermes and point it at the server:
curl -fsSL https://hermes-agent.nousresearch.com/install.sh | bash
hermes setup
hermes config set model.provider custom
hermes config set model.base_url http://127.0.0.1:8080/v1
hermes config set model.default {{ model_ref | sh }}
hermes
