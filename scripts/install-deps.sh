#!/usr/bin/env bash
# Installs the Debian packages Wavelength builds and runs with, and what the
# browser tests need (Chromium, its driver, a Japanese font for the demo
# library's titles in screenshots, and Selenium and pytest from PyPI), and gdb,
# which scripts/test.sh uses to record every thread of a stalled test run, and
# the field's own clients the tests speak to: liquidsoap, ezstream, mpv and
# Debian's icecast2 as the reference; and PostgreSQL, which the PostgreSQL
# store's tests start in a temporary folder of their own.
# Safe to rerun: it does nothing when everything is already there.
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

packages=(ffmpeg libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libaubio-dev libchromaprint-dev libebur128-dev libsqlite3-dev pkg-config
          libqrencode-dev libpng-dev zbar-tools qrencode libavahi-client-dev avahi-daemon dbus
          chromium chromium-driver fonts-ipafont-gothic fonts-noto-color-emoji python3 python3-pip gdb prometheus
          liquidsoap ezstream mpv icecast2 postgresql haproxy systemd pulseaudio pulseaudio-utils espeak-ng)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "Installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Selenium (driving the system chromedriver; Selenium Manager never runs),
# pytest and pytest-xdist (three browser tests at a time), and schemathesis
# (the server against its OpenAPI document), for whichever python3 runs the
# tests; icalendar and recurring_ical_events read the calendar feeds the way
# calendar apps do; openapi-spec-validator checks the OpenAPI document;
# numpy finds the chirps in the PulseAudio room's recordings.
python_packages="selenium pytest pytest-xdist schemathesis icalendar recurring_ical_events openapi-spec-validator numpy"
if ! python3 -c "import selenium, pytest, xdist, schemathesis, icalendar, recurring_ical_events, openapi_spec_validator, numpy" >/dev/null 2>&1; then
    echo "Installing from PyPI: $python_packages"
    # shellcheck disable=SC2086
    python3 -m pip install -q --disable-pip-version-check $python_packages 2>/dev/null \
        || python3 -m pip install -q --disable-pip-version-check --break-system-packages $python_packages
fi

command -v swift >/dev/null || { echo "Swift 6 is required (https://swift.org/install)"; exit 1; }
