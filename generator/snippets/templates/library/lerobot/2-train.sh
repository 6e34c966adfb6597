# Fine-tune this policy on your own LeRobot dataset
HF_USER="your-username"  # your Hugging Face user name
DATASET="${HF_USER}/my_dataset"  # a LeRobot dataset you recorded

lerobot-train \
    --policy.path={{ id | sh }} \
    --dataset.repo_id="$DATASET" \
    --batch_size=64 \
    --steps=20000 \
    --output_dir=outputs/train/my_policy \
    --job_name=my_policy \
    --policy.device=cuda \
    --policy.push_to_hub=false \
    --wandb.enable=false
