#!/usr/bin/env bash
# Whole-build benchmark: synthetic corpora of 10,000 and 100,000 models, a full
# build of each and a one-model incremental build, with wall time and peak
# memory from /usr/bin/time -v. Run by `make bench`; not part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/modelpages
WORK=${BENCH_DIR:-target/bench}
COUNTS=${BENCH_COUNTS:-"10000 100000"}
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
mkdir -p "$WORK"

measure() { # label, command...
    local label=$1; shift
    /usr/bin/time -v "$@" 2> "$WORK/time.txt" >/dev/null || { cat "$WORK/time.txt"; exit 1; }
    local wall rss line
    wall=$(grep 'Elapsed (wall clock)' "$WORK/time.txt" | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' "$WORK/time.txt" | awk '{print $NF}')
    line=$(grep '^built ' "$WORK/time.txt" || true)
    printf '%-34s wall %9s  peak %6d MB  %s\n' "$label" "$wall" $((rss / 1024)) "$line"
}

for n in $COUNTS; do
    corpus="$WORK/corpus-$n"
    out="$WORK/site-$n"
    [ -d "$corpus" ] || $BIN synth --count "$n" --out "$corpus" 2>/dev/null
    # The previous run's site is moved aside and removed after the
    # measurements: ext4 is slow to reuse inodes freed moments before, which
    # would charge the deletion of 400,000 files to the build that follows.
    old="$WORK/old-site-$n.$$"
    [ -e "$out" ] && mv "$out" "$old"
    rm -f "$WORK/.site-$n.manifest"
    measure "full build, $n models" $BIN build --full --models "$corpus" --out "$out"
    secs=$(grep -o 'in [0-9.]*s' "$WORK/time.txt" | head -1 | tr -dc '0-9.')
    awk -v n="$n" -v s="$secs" 'BEGIN { printf "%-34s %.0f models/s\n", "", n / s }'
    measure "unchanged rebuild, $n models" $BIN build --models "$corpus" --out "$out"
    model=$(find "$corpus" -mindepth 2 -maxdepth 2 -type d | sort | sed -n 1p)
    printf '\nA line added by the benchmark at %s.\n' "$(date +%s%N)" >> "$model/README.md"
    measure "one model changed, $n models" $BIN build --models "$corpus" --out "$out"
    python3 - "$out" <<'PY'
import gzip, pathlib, statistics, sys
root = pathlib.Path(sys.argv[1])
sizes = sorted(len(gzip.compress(p.read_bytes())) for p in root.glob("*/*/index.html")
               if p.parts[-3] not in ("libraries", "tasks"))
print(f"{'':34} median model page {statistics.median(sizes) / 1024:.1f} KB gzipped, largest {sizes[-1] / 1024:.1f} KB")
PY
    rm -rf "$old"
done
