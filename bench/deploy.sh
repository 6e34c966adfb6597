#!/usr/bin/env bash
# The daily deploy benchmark (see BENCHMARKS.md): a synthetic site deployed
# whole to moto's S3 server on 127.0.0.1 (started here, as the deploy tests
# start it), then a day of hub changes (`synth --day`), a rebuild, and a
# deploy of the day's change set: its wall time, files sent and removed, and
# the requests the server received (from its log), per file. The servers come
# from the checkers' virtual environment (`make checkers`). Not part of
# `make bench`.
#
#   bench/deploy.sh                         # 10,000 models with cards
#   BENCH_COUNT=50000 BENCH_MINIMAL=1 bench/deploy.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/modelpages
WORK=${BENCH_DIR:-target/bench}
N=${BENCH_COUNT:-10000}
VENV=${CARGO_TARGET_DIR:-target}/checkers-venv
SYNTH_FLAGS=""
if [ "${BENCH_MINIMAL:-0}" = 1 ]; then SYNTH_FLAGS="--minimal"; fi
[ -x "$VENV/bin/python" ] || { echo "no $VENV: run \`make checkers\` first"; exit 1; }
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time; }
mkdir -p "$WORK"
corpus="$WORK/deploy-corpus-$N"
out="$WORK/deploy-site-$N"
rm -rf "$corpus" "$out" "$WORK/.deploy-site-$N".*
$BIN synth $SYNTH_FLAGS --count "$N" --out "$corpus" 2>/dev/null
$BIN build --full --models "$corpus" --out "$out" 2>/dev/null

port=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log="$WORK/deploy-moto.log"
"$VENV/bin/python" -m moto.server -H 127.0.0.1 -p "$port" > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
for _ in $(seq 100); do "$VENV/bin/python" -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.1; done
"$VENV/bin/python" tests/deploy/s3_objects.py "$AWS_ENDPOINT_URL" bench --create

# label, deploy arguments...: wall time, files, requests the server logged.
deploy() {
    local label=$1; shift
    local before files wall requests
    before=$(wc -l < "$log")
    files=$(python3 bench/change-set.py count "$out" | awk '{print $1}')
    /usr/bin/time -f '%e' -o "$WORK/deploy-time.txt" $BIN deploy "s3://bench/site" --out "$out" "$@" > "$WORK/deploy-out.txt" 2>&1 \
        || { cat "$WORK/deploy-out.txt"; exit 1; }
    wall=$(cat "$WORK/deploy-time.txt")
    requests=$(tail -n +"$((before + 1))" "$log" | grep -c 'HTTP/1.1"' || true)
    printf '%-26s %s; %s s; %s requests\n' "$label" "$(tail -1 "$WORK/deploy-out.txt")" "$wall" "$requests"
    [ "$files" = whole ] || awk -v f="$files" -v w="$wall" -v r="$requests" \
        'BEGIN { printf "%-26s %d files in the change set: %.0f files/s, %.2f requests a file\n", "", f, f / w, r / f }'
}

deploy "first deploy, $N models" --max-deletes 0
$BIN synth $SYNTH_FLAGS --count "$N" --out "$corpus" --day 1
$BIN build --models "$corpus" --out "$out" 2>/dev/null
deploy "day 1, $N models" --max-deletes 1000
