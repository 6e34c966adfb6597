#!/usr/bin/env bash
# Copies model folder $1 to "$1-bench-added" under the id that goes with it,
# for the benchmarks' "one model added" builds; prints the new folder.
set -euo pipefail
added="$1-bench-added"
rm -rf "$added"  # left by an interrupted run
cp -r "$1" "$added"
python3 - "$added/model.json" <<'PY'
import json, sys
path = sys.argv[1]
record = json.load(open(path))
record["id"] += "-bench-added"
json.dump(record, open(path, "w"))
PY
echo "$added"
