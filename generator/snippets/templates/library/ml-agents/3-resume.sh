# Resume training from the downloaded checkpoint
CONFIG="./downloads/configuration.yaml"  # the trainer configuration you downloaded
RUN_ID="my-run"  # the run id to resume
mlagents-learn "$CONFIG" --run-id="$RUN_ID" --resume
