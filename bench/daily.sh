#!/usr/bin/env bash
# The daily-sync benchmark (see BENCHMARKS.md): a synthetic corpus, a full
# build, then days of hub changes (`modelpages synth --day`: every model's
# downloads moved by -10% to +15%, a tenth of the likes, one model in a
# thousand added, one in a thousand with its card edited, one in five
# thousand removed), each followed by a rebuild; then one model added, found
# by the survey and then named with --changed. For each rebuild: wall time,
# peak memory, and how many files the build's change set (`.<site>.changes`,
# what `deploy` uploads) lists, by kind of file. Not part of `make bench`.
#
#   bench/daily.sh                          # 100,000 models with cards, one day
#   BENCH_COUNTS="10000 50000" BENCH_DAYS=2 bench/daily.sh
#   BENCH_MINIMAL=1 bench/daily.sh          # small records without cards
#   BENCH_DIR=/dev/shm/bench bench/daily.sh # corpus and site in memory
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/modelpages
WORK=${BENCH_DIR:-target/bench}
COUNTS=${BENCH_COUNTS:-100000}
DAYS=${BENCH_DAYS:-1}
SYNTH_FLAGS=""
if [ "${BENCH_MINIMAL:-0}" = 1 ]; then SYNTH_FLAGS="--minimal"; fi
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
mkdir -p "$WORK"

source bench/measure.sh

for n in $COUNTS; do
    corpus="$WORK/daily-corpus-$n${SYNTH_FLAGS:+-minimal}"
    out="$WORK/daily-site-$n"
    # A day changes the corpus: each run starts from a fresh one.
    rm -rf "$corpus" "$out" "$WORK/.daily-site-$n".*
    $BIN synth $SYNTH_FLAGS --count "$n" --out "$corpus" 2>/dev/null
    measure "full build, $n models" $BIN build --full --models "$corpus" --out "$out"
    python3 bench/change-set.py consume "$out"
    for day in $(seq 1 "$DAYS"); do
        $BIN synth $SYNTH_FLAGS --count "$n" --out "$corpus" --day "$day"
        measure "day $day, $n models" $BIN build --models "$corpus" --out "$out"
        printf '%-34s %s\n' "" "$(python3 bench/change-set.py count "$out")"
        python3 bench/change-set.py consume "$out"
    done
    model=$(find "$corpus" -mindepth 2 -maxdepth 2 -type d | sort | sed -n 1p)
    added=$(bench/copy-model.sh "$model")
    measure "one model added, $n models" $BIN build --models "$corpus" --out "$out"
    printf '%-34s %s\n' "" "$(python3 bench/change-set.py count "$out")"
    python3 bench/change-set.py consume "$out"
    added=$(bench/copy-model.sh "$added")
    echo "${added#"$corpus"/}" > "$WORK/daily-changed.txt"
    measure "one added, --changed, $n models" $BIN build --models "$corpus" --out "$out" --changed "$WORK/daily-changed.txt"
    printf '%-34s %s\n' "" "$(python3 bench/change-set.py count "$out")"
done
