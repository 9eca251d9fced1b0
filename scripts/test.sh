#!/usr/bin/env bash
# Runs the whole test suite: core, library, storage, and the server over
# HTTP and WebSocket (including restart and kill -9), then the web app in
# headless Chromium against the real server binary. Exits non-zero on failure.
# Browser screenshots go to test-artifacts/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Build everything first: the crash test and the browser tests start the
# real `wavelength` binary.
swift build --build-tests
# The suite takes 15-60 s. Twice, on the first run after a clean build, every
# in-process server test stopped making progress with no thread busy (see the
# closing note of the session that added this); a second run has always passed.
# So a run that hasn't finished in 5 minutes is stopped and the suite is run
# again one test at a time. A test that fails, fails both runs.
if ! timeout 300 swift test --skip-build; then
    echo "swift test did not pass in 5 minutes; running it again without parallelism" >&2
    timeout 1200 swift test --skip-build --no-parallel
fi
WAVELENGTH_BIN="${WAVELENGTH_BIN:-.build/debug/wavelength}" python3 -m pytest -q tests/browser
