#!/usr/bin/env bash
# Runs the whole test suite: core, library, storage, and the server over
# HTTP and WebSocket (including restart and kill -9), then the web app in
# headless Chromium against the real server binary. Exits non-zero on failure.
# Browser screenshots go to test-artifacts/screenshots/.
#
# The Swift suite runs once. A failure fails the suite, and so does a run that
# stops making progress: it is never run again, serially or otherwise, since a
# race that passes on a second try is still a race.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Every temporary file of the run (the Swift tests' libraries and data
# folders, pytest's, Chromium's) goes in one folder of the run's own, removed
# when it ends: before, each run left its files in /tmp (a 7 MB library per
# test process, Chromium's artwork files, the servers' data folders), and two
# days of runs on one machine had left 19 GB there.
TMPDIR="$(mktemp -d "${TMPDIR:-/tmp}/wavelength-test-run.XXXXXX")"
export TMPDIR
# The PostgreSQL servers the store's tests start (in /tmp/wavelength-pg-*,
# as nobody when root) are stopped by each test; a run that is killed
# first would leave them running, so the end of the run stops any left
# (SIGINT: PostgreSQL's fast shutdown).
stop_left_postgres() {
    pkill -INT -f 'postgres -D /tmp/wavelength-pg-' 2>/dev/null || true
    pkill -INT -f 'postgres -D '"$TMPDIR"'/wavelength-pg-' 2>/dev/null || true
    # What a stopping server wrote after its folder was removed.
    local folder
    for folder in /tmp/wavelength-pg-*; do
        [ -d "$folder" ] || continue
        pgrep -f "postgres -D $folder/" >/dev/null || rm -rf "$folder"
    done
}
trap 'stop_left_postgres; rm -rf "$TMPDIR"' EXIT
# Build everything first: the crash test and the browser tests start the
# real `wavelength` binary.
swift build --build-tests

# The suite takes about a minute, a few on a loaded machine. One that has not
# finished in WAVELENGTH_TEST_TIMEOUT seconds has stalled: it is stopped, and
# what it was doing is left in test-artifacts/ (the tests that started and never
# finished, and every thread's backtrace).
limit="${WAVELENGTH_TEST_TIMEOUT:-900}"
mkdir -p test-artifacts
# The test binary runs directly rather than under `swift test`, which passes its
# output through a buffer of its own: a stalled run's log then ends at a 4 KiB
# boundary and names the wrong tests as unfinished.
tests="$(swift build --show-bin-path)/WavelengthPackageTests.xctest"
# The test binary and any process it starts, found by walking down from our
# own child rather than by name.
descendants() {
    local pid
    for pid in $(ps -o pid= --ppid "$1"); do
        echo "$pid"
        descendants "$pid"
    done
}
# run_swift_tests LOG [ARGUMENTS…]: one run of the test binary, watched for stalls.
run_swift_tests() {
    local log="$1"
    shift
    : >"$log"  # there before `tail` opens it
    # SWIFTNIO_STRICT: NIO's misuse checks stop the process instead of printing a
    # line nobody reads (an EmbeddedChannel used from a thread other than its
    # own printed "NIO API misuse" in 16 of 28 loop runs, and no test failed).
    # The servers the tests start inherit it.
    SWIFTNIO_STRICT=1 "$tests" --testing-library swift-testing "$@" >"$log" 2>&1 &
    local runner=$!
    tail -n +1 -f --pid="$runner" "$log" &
    local deadline=$((SECONDS + limit))
    while kill -0 "$runner" 2>/dev/null && ((SECONDS < deadline)); do
        sleep 5
    done
    if kill -0 "$runner" 2>/dev/null; then
        echo "The Swift tests did not finish in ${limit} s: it has stalled; failing the run (no retry)" >&2
        # Swift Testing logs "◇ Test x started." and "✔ Test x passed after ...",
        # "✘ Test x failed after ..." or "Test x skipped".
        sed -nE '/Test run /d; s/^.*Test (.*) started\.$/\1/p' "$log" | sort -u >test-artifacts/started.txt
        sed -nE 's/^.*Test (.*) (passed|failed) after .*$/\1/p; s/^.*Test (.*) skipped.*$/\1/p' "$log" | sort -u >test-artifacts/finished.txt
        echo "Tests started and never finished:" >&2
        comm -23 test-artifacts/started.txt test-artifacts/finished.txt | sed 's/^/  /' >&2
        local pids pid
        pids="$runner $(descendants "$runner")"
        for pid in $pids; do
            if command -v gdb >/dev/null && grep -qa PackageTests "/proc/$pid/cmdline" 2>/dev/null; then
                gdb -p "$pid" -batch -ex 'thread apply all bt' >"test-artifacts/stall-backtrace-$pid.txt" 2>&1 || true
                echo "Backtraces of every thread: test-artifacts/stall-backtrace-$pid.txt" >&2
            fi
        done
        # SIGKILL: the live tests' service groups take SIGTERM as a graceful
        # shutdown, which a stalled test never finishes.
        for pid in $pids; do kill -9 "$pid" 2>/dev/null || true; done
        exit 1
    fi
    wait "$runner"
}
# Everything on the embedded store (SQLite)…
run_swift_tests test-artifacts/swift-test.log
# …then the server's tests again on PostgreSQL, as `serve --database
# postgres://…` runs (one PostgreSQL for the run, a database per test):
# about a minute and a half more. At most 16 tests at once: every test
# server there is a cluster node (leases renewed every second, a LISTEN
# connection), and 265 of them at once on two cores saturated the one
# PostgreSQL (renewals took 4 s on average, up to 11 s, and leases lapsed
# mid-test); 16 at once passed in 93 s, faster than all at once (123 s).
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    WAVELENGTH_TEST_STORE=postgres run_swift_tests test-artifacts/swift-test-postgres.log \
        --experimental-maximum-parallelization-width 16 --filter WavelengthServerTests
else
    echo "⚠️  PostgreSQL is not installed: the server's tests on PostgreSQL are SKIPPED" >&2
fi

export WAVELENGTH_BIN="${WAVELENGTH_BIN:-.build/debug/wavelength}"
# The server against its OpenAPI document (schemathesis, about a minute), and a
# client swift-openapi-generator made from it (e2e/openapi-client: 2 to 3
# minutes for its first build, in its own .build).
python3 -m pytest -q -p no:cacheprovider e2e/api
# Three at a time: most of a browser test is waiting for audio and sockets
# (6 min 51 s on this 2-core machine, against 9 min one at a time). Each
# worker starts its own servers; the tests pass at load 20 too. The 30
# slowest are listed at the end: where the browser part's time goes.
python3 -m pytest -q -n 3 --durations=30 e2e/browser
