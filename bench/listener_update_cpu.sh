#!/usr/bin/env bash
# Where an update's time goes: the CPU the server and the load generator each
# spend while `wavelength-bench listeners` times its updates.
#
#   bench/listener_update_cpu.sh [listeners] [updates]
#
# Needs a release build (swift build -c release --scratch-path .build-release
# --product wavelength --product wavelength-bench). Starts its own server on port 18082 with a fresh data
# folder, runs the bench against it with --server, reads both processes'
# user+system CPU from /proc when the updates begin and when they end, and
# prints the bench's output and the two figures.
set -euo pipefail
listeners="${1:-10000}"
updates="${2:-10}"
bin="${WAVELENGTH_BIN:-$(dirname "$0")/../.build-release/release/wavelength}"
bench="${WAVELENGTH_BENCH_BIN:-$(dirname "$bin")/wavelength-bench}"
data="$(mktemp -d)"
log="$(mktemp)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$data" "$log"' EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
"$bin" serve --data "$data" --port 18082 --bcrypt-cost 4 \
    --signups-per-hour 100000 --guests-per-hour 100000 >/dev/null 2>&1 &
server=$!
for _ in $(seq 1 240); do
    curl -sf http://127.0.0.1:18082/health >/dev/null && break
    sleep 0.5
done
# utime + stime, in ms (clock ticks are 10 ms).
cpu() { awk '{print ($14 + $15) * 10}' "/proc/$1/stat"; }
stdbuf -oL "$bench" listeners --listeners "$listeners" --updates "$updates" \
    --server http://127.0.0.1:18082 >"$log" 2>&1 &
bench=$!
until grep -q "this load generator" "$log"; do
    kill -0 "$bench" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.1
done
# The bench waits 3 s after the joins before its first update.
sleep 2.5
s0=$(cpu "$server"); b0=$(cpu "$bench"); t0=$(date +%s%N)
until grep -q "^updates:" "$log"; do
    kill -0 "$bench" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.05
done
s1=$(cpu "$server"); b1=$(cpu "$bench"); t1=$(date +%s%N)
wait "$bench" || true
cat "$log"
echo "update phase: wall $(((t1 - t0) / 1000000)) ms; server CPU $((s1 - s0)) ms" \
    "($(((s1 - s0) / updates)) ms per update); load generator CPU $((b1 - b0)) ms ($(((b1 - b0) / updates)) ms per update)"
