# Checkpoint(s) from this repository
hf download {{ id | sh }} --include "*.pt" --local-dir ./opendde-checkpoint
CHECKPOINT="./opendde-checkpoint/opendde.pt"  # the .pt checkpoint you want to use

# A minimal job: one protein chain
cat > job.json <<'JSON'
[
    {
        "name": "demo",
        "modelSeeds": [7],
        "sequences": [
            {"proteinChain": {"sequence": "MKTAYIAKQRQISFVKSHFSRQ", "count": 1}}
        ]
    }
]
JSON

# Structure prediction without MSA/template search (no search databases needed)
uv run --no-project --python .venv opendde pred \
    -i job.json \
    -o ./output \
    --load_checkpoint_path "$CHECKPOINT" \
    --use_msa false \
    --use_template false \
    --use_rna_msa false \
    --sample 1
# Predicted structures: output/demo/seed_7/predictions/
