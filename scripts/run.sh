#!/usr/bin/env bash
# Runs the server with the embedded defaults: SQLite in ~/.local/share/wavelength
# and a generated demo library. Extra arguments go to `wavelength serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product wavelength
exec .build/release/wavelength serve "$@"
