#!/usr/bin/env bash
# Runs the whole test suite: core, library, storage, and the server over
# HTTP and WebSocket (including restart and kill -9). Exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Build everything first: the crash test starts the real `wavelength` binary.
swift build --build-tests
swift test --skip-build
