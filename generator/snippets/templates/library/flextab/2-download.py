{#- No documented Python loading call was found for FlexTab: this example gets
    the checkpoint files; the library's README shows how to use them. -#}
import os

from huggingface_hub import snapshot_download

model_dir = snapshot_download(repo_id={{ id | py }})
print(sorted(os.listdir(model_dir)))  # the .pt checkpoint(s) to give to FlexTab
# See https://github.com/SAP-samples/flextab for loading the checkpoint and predicting
