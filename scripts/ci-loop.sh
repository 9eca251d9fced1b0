#!/usr/bin/env bash
# Runs CI's command again and again, each time in a new clone of this
# repository's HEAD, and says how each run ended: the loop that shows the
# suite passes many times in a row, not once by luck.
#
#   scripts/ci-loop.sh [RUNS] [OUT]     (defaults: 20, /tmp/wavelength-ci-loop)
#
# Each run is `git clone` of HEAD as it is when the run starts (so commits
# made meanwhile are picked up), then `CI=true bash .ci/run`. The clone is
# always at OUT/clone, and the previous run's `.build` is moved into it
# first: the packages stay built, and the project's own modules build again
# (the clone's files are new). OUT/results.tsv gets a line a run (commit,
# start, end, exit status, seconds, load average at the end); OUT/run-N.log
# has its output, and a failed run's test-artifacts/ are kept in
# OUT/failed-N/. The loop stops at the first failure, or when OUT/STOP
# exists.
set -u
runs=${1:-20}
out=${2:-/tmp/wavelength-ci-loop}
source_repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
chmod 700 "$out"
clone="$out/clone"
kept="$out/build-kept"
first=$(($(find "$out" -maxdepth 1 -name 'run-*.log' | wc -l) + 1))
for ((n = first; n < first + runs; n++)); do
    [ -e "$out/STOP" ] && break
    [ -d "$clone/.build" ] && mv "$clone/.build" "$kept"
    rm -rf "$clone"
    git clone -q "$source_repo" "$clone"
    [ -d "$kept" ] && mv "$kept" "$clone/.build"
    commit=$(git -C "$clone" rev-parse --short HEAD)
    started=$(date +%s)
    start_time=$(date +%H:%M:%S)
    (cd "$clone" && CI=true bash .ci/run) >"$out/run-$n.log" 2>&1
    status=$?
    printf '%s\t%s\t%s\t%s\texit %s\t%s s\tload %s\n' "$n" "$commit" "$start_time" "$(date +%H:%M:%S)" \
        "$status" "$(($(date +%s) - started))" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/results.tsv"
    if [ "$status" -ne 0 ]; then
        cp -r "$clone/test-artifacts" "$out/failed-$n" 2>/dev/null
        echo "Run $n failed: $out/run-$n.log" >&2
        exit 1
    fi
done
