#!/usr/bin/env bash
# The 1,000,000-model build (see BENCHMARKS.md): a minimal synthetic corpus
# (synth --minimal), a full build, then a day of hub changes (synth --day 1:
# every model's downloads moved, models added, edited and removed) and the
# files its rebuild changed (the change set, by kind), then rebuilds after
# one model's card changed (looked for among all models, then named with
# --changed), one model's downloads changed, one model added (found, then
# named with --changed, four times for a median) and that model removed,
# each under /usr/bin/time -v
# with MODELPAGES_TIMINGS=1. With BENCH_SEARCH=1, cold visitors then search
# the site in chromium (site-src/test/scale), counting the bytes a first
# query costs. Not part of `make bench`. Builds run under
# `nice -n $BENCH_NICE` (10), the cleaner below at the script's own
# priority, so that it keeps up with them.
#
# A million model pages, notebooks and API files are about 50 GB; a disk
# without that room (BENCH_SQUEEZE=1) keeps only their names: while the build
# runs, a cleaner empties (truncates to 0 bytes) every model file older than
# three seconds in the staging folder, after adding its size to the total
# output size it reports. Listing files are left whole. The build neither
# reads model files back nor notices: an in-place rebuild trusts its
# manifest, and checks only that a sample of the files exists.
set -euo pipefail
cd "$(dirname "$0")/.."
# BENCH_BIN: another binary (a copy kept while the tree is rebuilt).
BIN=${BENCH_BIN:-target/release/modelpages}
WORK=${BENCH_DIR:-target/bench}
# The site (and what a build keeps beside it) may live elsewhere, in memory
# for instance: BENCH_SITE_DIR=/dev/shm/bench.
SITES=${BENCH_SITE_DIR:-$WORK}
N=${BENCH_MILLION:-1000000}
corpus="$WORK/corpus-$N-minimal"
out="$SITES/site-$N"
sizes="$WORK/million-sizes.txt"
mkdir -p "$WORK" "$SITES"
[ -d "$corpus" ] || $BIN synth --minimal --count "$N" --out "$corpus"

run() { # label, args...
    local label=$1; shift
    MODELPAGES_TIMINGS=1 /usr/bin/time -v nice -n "${BENCH_NICE:-10}" $BIN build --models "$corpus" --out "$out" "$@" 2> "$WORK/million-$label.log" || true
    echo "== $label"
    grep -E '^timing|^built|Elapsed \(wall|Maximum resident' "$WORK/million-$label.log"
}

# Empties the model files the build has written (not the listings'),
# namespace by namespace once a namespace folder has had no new model for
# 3 s, adding up their sizes in $sizes. MIN_AGE=0 for a last pass.
squeeze() {
    MIN_AGE=${1:-3} python3 - "$SITES" "$N" "$out" "$sizes" <<'PY'
import glob, os, sys, time
work, n, out, sizes = sys.argv[1:]
min_age = float(os.environ["MIN_AGE"])
listing = {"api", "assets", "libraries", "namespaces", "search", "sitemaps", "stats", "tasks"}
done_file = sizes + ".done"
done = set(open(done_file).read().split("\n")) if os.path.exists(done_file) else set()
emptied = 0
for root in glob.glob(os.path.join(work, f".site-{n}.tmp-*")) + [out]:
    for base, model_dirs in ((root, True), (os.path.join(root, "api", "models"), False)):
        if not os.path.isdir(base):
            continue
        for ns in os.scandir(base):
            key = f"{model_dirs}:{ns.name}"
            if not ns.is_dir(follow_symlinks=False) or (model_dirs and ns.name in listing) or key in done:
                continue
            # The build renames and removes folders as it goes: one gone
            # between listing and looking is skipped, not an error.
            try:
                if time.time() - ns.stat().st_mtime < min_age:
                    continue
                entries = list(os.scandir(ns.path))
            except FileNotFoundError:
                continue
            for entry in entries:
                files = [os.path.join(entry.path, f) for f in ("index.html", "notebook.ipynb")] if model_dirs else [entry.path]
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if model_dirs and (entry.name == "-" or not is_dir):
                    continue
                for f in files:
                    try:
                        size = os.stat(f).st_size
                        if size:
                            os.truncate(f, 0)
                            emptied += size
                    except FileNotFoundError:
                        pass
            done.add(key)
with open(sizes, "a") as s:
    s.write(f"{emptied}\n")
with open(done_file, "w") as d:
    d.write("\n".join(sorted(done)))
PY
}

rm -rf "$out" "$SITES/.site-$N.manifest" "$sizes" "$sizes.done"
if [ "${BENCH_SQUEEZE:-0}" = 1 ]; then
    ( while true; do squeeze; sleep 1; done ) &
    cleaner=$!
    # The cleaner's pass (its python) is stopped with it, not left running
    # beside the rebuilds being timed: held still, so it starts no other.
    stop_cleaner() { kill -STOP $cleaner 2>/dev/null || true; pkill -P $cleaner || true; kill $cleaner 2>/dev/null || true; kill -CONT $cleaner 2>/dev/null || true; wait $cleaner 2>/dev/null || true; }
    trap stop_cleaner EXIT
fi
run full
if [ "${BENCH_SQUEEZE:-0}" = 1 ]; then
    stop_cleaner
    squeeze 0; rm -f "$sizes.done"
fi
# Every rebuild below would be a full build of its own without a site.
[ -f "$SITES/.site-$N.manifest" ] || { echo "the full build failed: see $WORK/million-full.log"; exit 1; }
# A day of hub changes: what its rebuild writes is what a deploy sends.
python3 bench/change-set.py consume "$out"
$BIN synth --minimal --count "$N" --out "$corpus" --day 1
run day
echo "== day: $(python3 bench/change-set.py count "$out")"
python3 bench/change-set.py consume "$out"
model=$(find "$corpus" -mindepth 2 -maxdepth 2 -type d | sort | sed -n 1p)
printf '\nA line added by the benchmark at %s.\n' "$(date +%s%N)" >> "$model/README.md"
sleep 3
run changed
printf '\nA line added by the benchmark at %s.\n' "$(date +%s%N)" >> "$model/README.md"
echo "${model#"$corpus"/}" > "$WORK/million-changed.txt"
run changed-list --changed "$WORK/million-changed.txt"
# Only the figure changes, as a sync job writes it: the record's other bytes stay.
python3 - "$model/model.json" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
open(sys.argv[1], "w").write(re.sub(r'("downloads": )(\d+)', lambda m: m.group(1) + str(int(m.group(2)) + 1), text, count=1))
PY
run downloads
added=$(bench/copy-model.sh "$model")
run added
echo "== added: $(python3 bench/change-set.py count "$out")"
python3 bench/change-set.py consume "$out"
rm -r "$added"
run removed
added=$(bench/copy-model.sh "$model")
echo "${added#"$corpus"/}" > "$WORK/million-changed.txt"
run added-list --changed "$WORK/million-changed.txt"
echo "== added with --changed: $(python3 bench/change-set.py count "$out")"
rm -r "$added"
run removed-list --changed "$WORK/million-changed.txt"
# Three more adds named with --changed, each a new model in another part of
# the corpus (and removed again), so that the add's figure is a median of four.
namespaces=$(ls "$corpus" | wc -l)
for quarter in 1 2 3; do
    ns=$(ls "$corpus" | sed -n "$((namespaces * quarter / 4 + 1))p")
    added=$(bench/copy-model.sh "$corpus/$ns/$(ls "$corpus/$ns" | head -1)")
    echo "${added#"$corpus"/}" > "$WORK/million-changed.txt"
    run "added-list-$quarter" --changed "$WORK/million-changed.txt"
    rm -r "$added"
    run "removed-list-$quarter" --changed "$WORK/million-changed.txt"
done
echo "== added with --changed, wall times of the four runs: $(grep -h 'Elapsed (wall' "$WORK"/million-added-list*.log | awk '{print $NF}' | sort | tr '\n' ' ')"
run unchanged
listing=$( (du -sb "$out/search" "$out/tasks" "$out/libraries" "$out/namespaces" "$out/sitemaps" "$out/api/libraries" "$out/api/tasks" 2>/dev/null || true) | awk '{s+=$1} END {printf "%d", s}')
emptied=$(awk '{s+=$1} END {printf "%d", s}' "$sizes" 2>/dev/null || echo 0)
echo "== output: $(find "$out" -type f | wc -l) files; listings $((listing / 1048576)) MB; model files emptied by the cleaner: $((emptied / 1048576)) MB"
echo "== largest file: $(find "$out" -type f -printf '%s %p\n' | sort -n | tail -1)"
if [ "${BENCH_SEARCH:-0}" = 1 ]; then
    (cd site-src && MODELPAGES_CHROMIUM="${MODELPAGES_CHROMIUM:-/usr/bin/chromium}" MODELPAGES_SCALE_DIST="$(realpath "$out")" \
        MODELPAGES_SCALE_MODELS="$(realpath "$corpus")" node --test test/scale/) 2>&1 | grep -E '^# (pass|fail)|^# .*bytes|not ok' || true
fi
