#!/usr/bin/env bash
# Installs the Debian packages Wavelength builds and runs with. Safe to rerun:
# it does nothing when everything is already there.
set -euo pipefail

packages=(ffmpeg libavformat-dev libavcodec-dev libavutil-dev libsqlite3-dev pkg-config)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "Installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "Swift 6 is required (https://swift.org/install)"; exit 1; }
