#!/usr/bin/env bash
# Whole-build benchmark: synthetic corpora of 10,000 and 100,000 models; for
# each, a full build with the corpus out of the OS's cache and one with it
# cached, then incremental builds (nothing changed, one model changed, added,
# removed), with wall time and peak memory from /usr/bin/time -v. Run by
# `make bench`; not part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/modelpages
WORK=${BENCH_DIR:-target/bench}
COUNTS=${BENCH_COUNTS:-"10000 100000"}
# BENCH_MINIMAL=1: small records without cards (synth --minimal), as the
# 1,000,000-model run uses (bench/million.sh).
SYNTH_FLAGS=""
if [ "${BENCH_MINIMAL:-0}" = 1 ]; then SYNTH_FLAGS="--minimal"; fi
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
mkdir -p "$WORK"

source bench/measure.sh

# Sites replaced by this run, removed once everything is measured: ext4
# without a journal (this machine) skips inodes freed in the last minutes
# when it allocates new ones, so removing 400,000 files just before a build
# would charge the removal to that build (see BENCHMARKS.md).
old_sites=()
trap 'rm -rf "${old_sites[@]}"' EXIT

# Drops a corpus from the OS's cache, as after a reboot or a fresh checkout.
evict() {
    python3 - "$1" <<'PY'
import os, sys
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        fd = os.open(os.path.join(root, name), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}

for n in $COUNTS; do
    corpus="$WORK/corpus-$n${SYNTH_FLAGS:+-minimal}"
    out="$WORK/site-$n"
    [ -d "$corpus" ] || $BIN synth $SYNTH_FLAGS --count "$n" --out "$corpus" 2>/dev/null
    for cache in cold warm; do
        if [ -e "$out" ]; then
            old_sites+=("$WORK/old-site-$n-$cache.$$")
            mv "$out" "${old_sites[-1]}"
        fi
        rm -f "$WORK/.site-$n.manifest"
        if [ $cache = cold ]; then evict "$corpus"; fi
        measure "full build, $n models, $cache" $BIN build --full --models "$corpus" --out "$out"
        secs=$(grep -o 'in [0-9.]*s' "$WORK/time.txt" | head -1 | tr -dc '0-9.')
        awk -v n="$n" -v s="$secs" 'BEGIN { printf "%-34s %.0f models/s\n", "", n / s }'
    done
    measure "unchanged rebuild, $n models" $BIN build --models "$corpus" --out "$out"
    model=$(find "$corpus" -mindepth 2 -maxdepth 2 -type d | sort | sed -n 1p)
    printf '\nA line added by the benchmark at %s.\n' "$(date +%s%N)" >> "$model/README.md"
    measure "one model changed, $n models" $BIN build --models "$corpus" --out "$out"
    # A model added (a copy of the first under a new name), then removed again.
    added=$(bench/copy-model.sh "$model")
    measure "one model added, $n models" $BIN build --models "$corpus" --out "$out"
    rm -r "$added"
    measure "one model removed, $n models" $BIN build --models "$corpus" --out "$out"
    python3 - "$out" <<'PY'
import gzip, pathlib, statistics, sys
root = pathlib.Path(sys.argv[1])
sizes = sorted(len(gzip.compress(p.read_bytes())) for p in root.glob("*/*/index.html")
               if p.parts[-3] not in ("libraries", "tasks"))
print(f"{'':34} median model page {statistics.median(sizes) / 1024:.1f} KB gzipped, largest {sizes[-1] / 1024:.1f} KB")
PY
done
