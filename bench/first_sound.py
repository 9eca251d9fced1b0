#!/usr/bin/env python3
"""First sound: how long a guest who opens a station link waits to hear it.

Starts `wavelength serve` (the release build when there is one, else the
debug build, or --binary / WAVELENGTH_BIN) with the demo library (every
format the demo has: MP3, FLAC, AAC in M4A, Opus, Vorbis), makes one
station, and opens N fresh phone-sized headless Chromium contexts on its
link (`/#/station/ID`), each a new browser with an empty profile: no HTTP
cache, no service worker, as a guest who scans the party's QR code. Every
page is read through its measurement hook, window.__wavelength.report():

- page open → first sound: from the navigation's start (the page's time
  origin) to the first sample heard (firstSoundAt);
- tune-in → first sound: from the player's tune-in (tunedAt) to the first
  sample heard (firstSoundMs). For a link that is when the page starts its
  player on its own, before the app's modules have loaded
  (web/js/playback/early-player.js), or else the station screen's tune-in;
- the stages between (report().stages, all ms after the page opened): the
  app booted, tuned in, the WebSocket open, the snapshot, the audio asked
  for, the range fetched and its partial decode, the first sound, then the
  whole file's fetch and decode behind it and the move over to it.

It prints figures (median, min, max) and asserts no timing. By default the
contexts open one after another (a phone each, as at a party: on this
machine, browsers opened together share its CPUs, which phones don't);
--together opens them all at once.

    python3 bench/first_sound.py [--binary .build/release/wavelength] [--contexts 8] [--together] [--library DIR]

The demo station plays what its robot DJ picks, so one run may hear mostly
one format: "how the first sound was made" says which path each took
(range: a byte range around the position; piece/prefix: cut from the
whole file as it streamed; whole: the whole file decoded first; early / early
whole: a range, or the file's start, or the whole file, fetched and decoded
as the page opened, web/js/playback/early-audio.js).

WAVELENGTH_WEB serves another copy of the web app (e.g. the one before a
change, to compare).
"""
import argparse
import json
import os
import statistics
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from harness import Server, create_station, wait  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
REPORT_JS = "return window.__wavelength && window.__wavelength.report ? window.__wavelength.report() : null"
# Marks the page sets on the way (ms after it opened), for pages without
# report().stages (an older web app given with WAVELENGTH_WEB).
MARKS_JS = "return Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, m.startTime]))"


def new_context():
    """A fresh phone-sized headless Chromium: its own empty profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                "--disable-dev-shm-usage", "--disable-gpu", "--mute-audio", "--no-first-run",
                "--window-size=390,844"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.set_script_timeout(30)
    return driver


def open_link(url, timeout=30):
    """Opens `url` in a fresh context; returns the page's report once sound plays."""
    driver = new_context()
    try:
        # about:blank first, so the browser's own start isn't in the figures:
        # the page's clock starts at the navigation to the link.
        driver.get("about:blank")
        driver.execute_script("location.href = arguments[0]", url)

        def heard():
            try:
                r = driver.execute_script(REPORT_JS)
            except Exception:
                return None  # between documents
            return r if r and r.get("positionMs") is not None and r.get("firstSoundAt") is not None else None

        report = wait(heard, timeout)
        if not report:
            raise RuntimeError(f"no sound within {timeout} s: {driver.execute_script(REPORT_JS)}")
        report["marks"] = driver.execute_script(MARKS_JS)
        return report
    finally:
        driver.quit()


def stages_of(report):
    """The stages (ms after the page opened) from report().stages, or from
    what older pages report."""
    stages = dict(report.get("stages") or {})
    marks = report.get("marks") or {}
    stages.setdefault("tunedIn", report.get("tunedAt"))
    if "wavelength:open" in marks:
        stages.setdefault("socketOpen", marks["wavelength:open"])
    if "wavelength:snapshot" in marks:
        stages.setdefault("snapshot", marks["wavelength:snapshot"])
    stages.setdefault("firstSound", report.get("firstSoundAt"))
    return {k: v for k, v in stages.items() if isinstance(v, (int, float))}


def line(name, values, unit="ms"):
    values = [v for v in values if v is not None]
    if not values:
        return f"  {name:<44} (none)"
    return (f"  {name:<44} median {statistics.median(values):7.0f}  min {min(values):7.0f}  "
            f"max {max(values):7.0f} {unit}  (n={len(values)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    release = os.path.join(ROOT, ".build/release/wavelength")
    default = os.environ.get("WAVELENGTH_BIN") or (release if os.path.exists(release) else os.path.join(ROOT, ".build/debug/wavelength"))
    parser.add_argument("--binary", default=default)
    parser.add_argument("--contexts", type=int, default=8)
    parser.add_argument("--together", action="store_true", help="open every context at once")
    parser.add_argument("--library", action="append", default=[],
                        help="a music folder to play instead of the demo library (repeatable)")
    parser.add_argument("--json", help="also write every report to this file")
    args = parser.parse_args()

    print(f"server: {args.binary}", file=sys.stderr)
    server = Server(args.binary, libraries=args.library, options=["--no-analysis", "--source-port", "-1", "--no-mdns"])
    try:
        station = create_station(server.url, "First sound")
        link = f"{server.url}/#/station/{station['id']}"
        # The station plays from the first listener on; a guest arrives
        # mid-song, as at a party that's on. One listener wakes it (a
        # request for its timeline doesn't); wait until it has played a while.
        reports = []
        errors = []
        warm = wait(lambda: _timeline_current(server.url, station["id"]), 10)
        if not warm:
            print("  (the station shows nothing playing before the first listener: fine)", file=sys.stderr)

        def one(index):
            try:
                reports.append((index, open_link(link)))
            except Exception as error:  # reported, not fatal
                errors.append(f"context {index}: {error!r}")

        if args.together:
            threads = [threading.Thread(target=one, args=(i,)) for i in range(args.contexts)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        else:
            for i in range(args.contexts):
                one(i)
        reports.sort(key=lambda x: x[0])
        for error in errors:
            print(f"  {error}")
        rs = [r for _, r in reports]
        print(f"\n== first sound: {len(rs)} fresh phone-sized Chromium contexts on a station link "
              f"({'all at once' if args.together else 'one after another'}; {os.path.basename(args.binary)}"
              f" {'release' if '/release/' in args.binary else 'debug' if '/debug/' in args.binary else ''})")
        print(line("page open → first sound", [r.get("firstSoundAt") for r in rs]))
        print(line("tune-in → first sound", [r.get("firstSoundMs") for r in rs]))
        formats = sorted({r.get("format") or "?" for r in rs})
        if len(formats) > 1:
            for f in formats:
                print(line(f"tune-in → first sound, {f}", [r.get("firstSoundMs") for r in rs if (r.get("format") or "?") == f]))
        print("  stages (ms after the page opened):")
        all_stages = [stages_of(r) for r in rs]
        names = []
        for s in all_stages:
            for k in sorted(s, key=lambda k: statistics.median([x[k] for x in all_stages if k in x])):
                if k not in names:
                    names.append(k)
        names.sort(key=lambda k: statistics.median([x[k] for x in all_stages if k in x]))
        for k in names:
            print(line("  " + k, [s.get(k) for s in all_stages]))
        print("  per context (format, position s, how the first sound was made, ms after tune-in):")
        for r, s in zip(rs, all_stages):
            load = (r.get("details") or {}).get("load") or {}
            tuned = r.get("tunedAt") or 0
            print(f"    {str(r.get('format') or load.get('format') or '?'):<5} at {(r.get('positionMs') or 0) / 1000:6.1f} s  "
                  f"first sound {r.get('firstSoundMs') or 0:6.0f}  open→sound {r.get('firstSoundAt') or 0:6.0f}  "
                  f"{load.get('first') or load.get('quick') or 'whole'}  "
                  + " ".join(f"{k}={v - tuned:.0f}" for k, v in sorted(s.items(), key=lambda kv: kv[1]) if k != "tunedIn"))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rs, f, indent=1)
    finally:
        server.stop()


def _timeline_current(url, station_id):
    try:
        with urllib.request.urlopen(f"{url}/api/stations/{station_id}/timeline", timeout=5) as response:
            return json.load(response).get("current")
    except Exception:
        return None


if __name__ == "__main__":
    main()
