# Sourced by the benchmark scripts: `measure LABEL COMMAND...` runs one build
# under /usr/bin/time -v and prints its wall time, peak resident memory and
# the build's own closing line. Needs $WORK.
measure() {
    local label=$1; shift
    /usr/bin/time -v "$@" 2> "$WORK/time.txt" >/dev/null || { cat "$WORK/time.txt"; exit 1; }
    local wall rss line
    wall=$(grep 'Elapsed (wall clock)' "$WORK/time.txt" | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' "$WORK/time.txt" | awk '{print $NF}')
    line=$(grep '^built ' "$WORK/time.txt" || true)
    printf '%-34s wall %9s  peak %6d MB  %s\n' "$label" "$wall" $((rss / 1024)) "$line"
}
