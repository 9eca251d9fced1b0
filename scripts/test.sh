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
# A hang must fail the run, not eat CI's whole budget.
timeout 1200 swift test --skip-build
WAVELENGTH_BIN="${WAVELENGTH_BIN:-.build/debug/wavelength}" python3 -m pytest -q tests/browser
