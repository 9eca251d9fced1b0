#!/usr/bin/env python3
"""Lyric line timing across two browsers: when does the highlighted lyric
line change in each of two Chromium listeners on the same station, how far
apart are they, and how far is each from the song's LRC schedule?

The server (WAVELENGTH_BIN, or --binary) starts on a free port with a
generated library of one sine tone whose .lrc sidecar has many short lines
(one every 1.0–2.0 s, irregular, so no two gaps look alike). A bench user's
station plays it; two headless Chromium browsers (Debian's chromium and
chromium-driver, through Selenium) tune in. Browser B's own clock is
injected off the true one (window.__wavelengthClockFault, --fault; the app's
clock sync is supposed to remove it): both browsers share this machine's
kernel clock, so without a fault a page that ignored the server's clock
would look perfect. The DJ then cuts to the lyric track from the top.

In each page a MutationObserver (injected with execute_script; the app is
not changed) logs every line that gets aria-current="true" in the lyrics
panel, with two stamps taken in the observer's callback, right after the
app's own task that moved the highlight:

- the true clock: performance.now() plus a base read from the edges of
  Date.now()'s millisecond ticks (recalibrated every 2 s). The server runs
  on this machine and its clock is the wall clock, so this is the server's
  clock, and the two browsers' stamps compare;
- the page's own synced server clock (window.__wavelength.clock: its local
  clock, fault included, plus the offset it applies), which is what the
  app's lyricsClock() reads.

For each line change seen by both browsers (the same entry and line index)
it prints the difference B − A, and for each browser the error against the
LRC schedule: the change instant minus the scheduled instant, i.e. the
entry's start on the server clock − the entry's offset + the line's time
(entries as GET /api/stations/{id}/timeline lists them). That error is given
on the true clock (what a person sees) and on the page's own clock (the
app's timer lateness alone); their difference is the page clock's error.
Then: the number of line changes matched, and the median, p95 and max of
the absolute difference between the browsers, in ms; lines skipped or lit
twice in each browser; and, to tell a late line from a busy machine, the
page's long tasks (PerformanceObserver) and how late a 50 ms probe timer in
the page fired around each line (the app's own timer can't be earlier).
The load average is printed too: on a loaded 2-core machine both pages
stall together, and the tail figures are the machine's more than the app's.

    WAVELENGTH_BIN=/path/to/wavelength python3 bench/lyric_timing.py [--seconds 45] [--fault 37,50]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from browser_listeners import REPORT_JS, new_browser, wait  # noqa: E402
from harness import Server  # noqa: E402

TITLE = "Lyric Clock"

# Installed once per page: logs (line index, stamps) whenever a lyric line
# gets aria-current="true". The callback runs at the microtask checkpoint
# right after the app's task that changed the highlight.
OBSERVE_JS = r"""
if (window.__lyricTiming) return window.__lyricTiming.installedPerf;
const panel = document.querySelector('.lyrics-panel');
if (!panel) return null;
const c = window.__wavelength.clock;
// performance.now() of Date.now()'s tick edges: the wall clock with
// sub-millisecond resolution (the largest of a few, as a read can only be late).
function tickEdge() {
  const first = Date.now();
  const limit = performance.now() + 3;
  let wall = first, at = performance.now();
  while (wall === first && at < limit) { wall = Date.now(); at = performance.now(); }
  return wall !== first ? wall - at : null;
}
const bases = [];
function calibrate() {
  let best = null;
  for (let i = 0; i < 4; i++) {
    const e = tickEdge();
    if (e !== null && (best === null || e > best)) best = e;
  }
  if (best !== null) bases.push({perf: performance.now(), base: best, origin: performance.timeOrigin});
}
calibrate();
const timer = setInterval(calibrate, 2000);
const log = [];
// Long tasks (50 ms or more on the page's main thread), to tell a late line
// from a busy page.
const longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({start: e.startTime, duration: e.duration});
  }).observe({type: 'longtask', buffered: true});
} catch (e) { /* not supported: no long tasks listed */ }
// A probe timer every 50 ms: when it fires late, the page (or the whole
// machine) was too busy to run timers, the lyrics' among them. Only late
// firings (over 15 ms) are kept.
const stalls = [];
let probeDue = performance.now() + 50;
let probe = null;
const tick = () => {
  const now = performance.now();
  if (now - probeDue > 15) stalls.push({due: probeDue, lag: now - probeDue});
  probeDue = now + 50;
  probe = setTimeout(tick, 50);
};
probe = setTimeout(tick, 50);
const screen = () => document.querySelector('.station-screen');
const observer = new MutationObserver((records) => {
  const perf = performance.now();
  // The page's server clock as the app reads it (without advancing its slew).
  const server = c.localAt(perf) + c.offset;
  for (const r of records) {
    const li = r.target;
    if (li.getAttribute('aria-current') !== 'true') continue;
    const s = screen();
    log.push({index: Number(li.dataset.index), timeMs: Number(li.dataset.timeMs), perf, server,
              offset: c.offset, trackID: panel.dataset.trackId || null,
              entryID: s ? s.dataset.entryId || null : null});
  }
});
observer.observe(panel, {subtree: true, attributes: true, attributeFilter: ['aria-current']});
const installedPerf = performance.now();
window.__lyricTiming = {log, bases, longTasks, stalls, installedPerf,
  stop() { observer.disconnect(); clearInterval(timer); clearTimeout(probe); calibrate(); }};
return installedPerf;
"""

COLLECT_JS = """
const t = window.__lyricTiming;
if (!t) return null;
t.stop();
return {log: t.log, bases: t.bases, longTasks: t.longTasks, stalls: t.stalls, installedPerf: t.installedPerf};
"""

PANEL_JS = """
const panel = document.querySelector('.lyrics-panel');
const screen = document.querySelector('.station-screen');
return {ready: Boolean(screen && screen.dataset.state === 'ready'),
        shown: Boolean(panel && !panel.hidden),
        trackID: panel ? panel.dataset.trackId || null : null,
        synced: panel ? panel.dataset.synced || null : null,
        line: panel ? Number(panel.dataset.line || -1) : -1};
"""


def lrc_stamp(ms):
    return "[%02d:%05.2f]" % (ms // 60000, (ms % 60000) / 1000)


def make_library(root, seconds, seed=14):
    """One sine tone `seconds` long and its .lrc: a line every 1.0–2.0 s."""
    mp3 = os.path.join(root, "01-lyric-clock.mp3")
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=44100:duration={seconds}",
         "-ac", "2", "-c:a", "libmp3lame", "-b:a", "96k",
         "-metadata", f"title={TITLE}", "-metadata", "artist=Wavelength Bench",
         "-metadata", "album_artist=Wavelength Bench", "-metadata", "album=Calibration",
         "-metadata", "track=1", "-metadata", "genre=Test", mp3],
        check=True)
    rng = random.Random(seed)
    lines, at, n = [], 1000, 1
    while at < (seconds - 2) * 1000:
        lines.append(f"{lrc_stamp(at)}Line {n}, {rng.choice(['la', 'da', 'na'])} {'o' * rng.randint(1, 12)}")
        at += rng.randint(100, 200) * 10
        n += 1
    with open(os.path.join(root, "01-lyric-clock.lrc"), "w") as f:
        f.write(f"[ti:{TITLE}]\n[ar:Wavelength Bench]\n" + "\n".join(lines) + "\n")
    return len(lines)


def api(server, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read().decode()
        return json.loads(text) if text else None


def command(server, op):
    return api(server, "POST", f"/api/stations/{server.station}/commands",
               {"id": f"lyric-bench-{time.time_ns()}", "command": op}, token=server.key)


def wall_at(bases, perf):
    """The true clock at performance time `perf`: the calibration nearest in time."""
    best = min(bases, key=lambda b: abs(b["perf"] - perf))
    return best["base"] + perf


def entry_for(entries, instant):
    for e in entries.values():
        if e["start"] <= instant < e["expiration"]:
            return e
    return None


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def stats(values):
    """median, p95 |x| and max |x| of signed values, as text."""
    if not values:
        return "no samples"
    absolute = [abs(v) for v in values]
    return "median %+7.1f   p95 |x| %6.1f   max |x| %6.1f   (n=%d)" % (
        statistics.median(values), pct(absolute, .95), max(absolute), len(values))


def changes(name, collected, entries):
    """A browser's line changes as {(entry id, index): change} on the true clock."""
    out, order = {}, []
    for item in collected["log"]:
        wall = wall_at(collected["bases"], item["perf"])
        # The entry is the one the page's own clock was in (as the app's
        # entryAt() picks it); the screen's data-entry-id is a frame behind.
        entry = entry_for(entries, item["server"]) or entry_for(entries, wall)
        if entry is None or entry["track"]["id"] != item["trackID"]:
            continue
        scheduled = entry["start"] - entry.get("offsetMs", 0) + item["timeMs"]
        key = (entry["id"], item["index"])
        # How much of the time from when the line was due to when it came the
        # page's main thread spent in long tasks.
        due_perf = item["perf"] - (wall - scheduled)
        busy = sum(max(0.0, min(t["start"] + t["duration"], item["perf"]) - max(t["start"], due_perf))
                   for t in collected.get("longTasks") or [])
        # The latest a 50 ms probe timer fired around then (due from 300 ms
        # before the line, when the app's 250 ms frame arms the line's timer,
        # to its change): a page that couldn't run timers.
        stall = max([x["lag"] for x in collected.get("stalls") or [] if due_perf - 300 <= x["due"] <= item["perf"]],
                    default=0.0)
        change = dict(item, wall=wall, scheduled=scheduled, entry=entry["id"], busy=busy, stall=stall,
                      true_error=wall - scheduled, page_error=item["server"] - scheduled,
                      clock_error=item["server"] - wall, repeat=key in out)
        order.append(change)
        out.setdefault(key, change)
    return out, order


def sequence_faults(order):
    """Skipped lines (a jump of more than one line) and lines lit again, within one entry."""
    skipped = repeated = backwards = 0
    seen = set()
    for a, b in zip(order, order[1:]):
        if a["entry"] != b["entry"]:
            continue
        if b["index"] > a["index"] + 1:
            skipped += b["index"] - a["index"] - 1
        if b["index"] < a["index"]:
            backwards += 1
    for c in order:
        key = (c["entry"], c["index"])
        if key in seen:
            repeated += 1
        seen.add(key)
    return skipped, repeated, backwards


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("WAVELENGTH_BIN", os.path.join(ROOT, ".build/debug/wavelength")))
    parser.add_argument("--seconds", type=float, default=45, help="how long the line changes are recorded (default 45)")
    parser.add_argument("--fault", default="37,50",
                        help="browser B's injected clock error: offset ms,skew ppm (default 37,50; 0,0 for none)")
    parser.add_argument("--quiet", action="store_true", help="leave out the table of every line")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"no server binary at {args.binary}: set WAVELENGTH_BIN or --binary")
    if not shutil.which("ffmpeg"):
        raise SystemExit("ffmpeg is needed to generate the library")
    offset_ms, skew_ppm = (float(x) for x in args.fault.split(","))
    faults = {"A": {"offsetMs": 0, "skewPpm": 0}, "B": {"offsetMs": offset_ms, "skewPpm": skew_ppm}}

    work = tempfile.mkdtemp(prefix="wavelength-lyrictiming-")
    server = None
    drivers = {}
    try:
        library = os.path.join(work, "library")
        os.makedirs(library)
        # Long enough for the setup, the recording and some room.
        track_seconds = int(args.seconds + 60)
        line_count = make_library(library, track_seconds)
        server = Server(args.binary, libraries=[library], options=["--no-analysis", "--source-port", "0"])
        track = next(t for t in api(server, "GET", "/api/library/tracks?limit=50") if t["title"] == TITLE)
        lyrics = api(server, "GET", f"/api/tracks/{track['id']}/lyrics.json")
        times = [line["timeMs"] for line in lyrics["lines"]]
        assert lyrics.get("synced") and len(times) == line_count, lyrics

        # Two listeners tune in (neither signed in) and press Listen if asked.
        for name in "AB":
            d = new_browser(faults[name])
            d.set_script_timeout(60)
            drivers[name] = d
            d.get(f"{server.url}/#/station/{server.station}")
        for name, d in drivers.items():
            if not wait(lambda: d.execute_script(PANEL_JS)["ready"], 120):
                errors = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
                raise SystemExit(f"browser {name}: the station screen never got ready; console errors: {errors[-5:]}")
            button = d.execute_script("return document.querySelector('.btn-play')")
            if button is not None and button.get_attribute("aria-label") == "Listen":
                d.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", button)
            if not wait(lambda: (d.execute_script(REPORT_JS) or {}).get("state") == "playing", 120):
                raise SystemExit(f"browser {name}: the station never played ({d.execute_script(REPORT_JS)})")

        # The DJ cuts to the lyric track from the top, so the whole recording is one entry.
        timeline = api(server, "GET", f"/api/stations/{server.station}/timeline")
        command(server, {"op": "queueNext", "trackID": track["id"]})
        command(server, {"op": "skip", "entryID": timeline["current"]["id"]})
        for name, d in drivers.items():
            if not wait(lambda: (lambda p: p["shown"] and p["trackID"] == track["id"] and p["synced"] == "true")(
                    d.execute_script(PANEL_JS)), 120):
                raise SystemExit(f"browser {name}: the synced lyrics never showed ({d.execute_script(PANEL_JS)})")
        for name, d in drivers.items():
            if d.execute_script(OBSERVE_JS) is None:
                raise SystemExit(f"browser {name}: no lyrics panel to observe")

        load_before = os.getloadavg()
        # Record; meanwhile keep every entry the station lists (their starts).
        entries = {}
        end = time.monotonic() + args.seconds
        while True:
            timeline = api(server, "GET", f"/api/stations/{server.station}/timeline")
            for e in [timeline.get("current"), *(timeline.get("upNext") or [])]:
                if e:
                    entries[e["id"]] = e
            if time.monotonic() >= end:
                break
            time.sleep(min(1.0, max(0.0, end - time.monotonic())))
        collected = {name: d.execute_script(COLLECT_JS) for name, d in drivers.items()}
        reports = {name: d.execute_script(REPORT_JS) for name, d in drivers.items()}
        timeline = api(server, "GET", f"/api/stations/{server.station}/timeline")
        for e in [timeline.get("current"), *(timeline.get("upNext") or [])]:
            if e:
                entries[e["id"]] = e
        # Entries already played keep the start the station gave them while
        # current; anything that moved later would show as a large error.

        by_key, orders = {}, {}
        for name in "AB":
            by_key[name], orders[name] = changes(name, collected[name], entries)
        matched = sorted(set(by_key["A"]) & set(by_key["B"]),
                         key=lambda k: by_key["A"][k]["wall"])
        diffs = [by_key["B"][k]["wall"] - by_key["A"][k]["wall"] for k in matched]
        absolute = [abs(x) for x in diffs]

        gaps = [b - a for a, b in zip(times, times[1:])]
        print(f"\n== lyric line timing: 2 Chromium listeners on one station, {args.seconds:.0f} s recorded")
        print(f"  load average before/after: {load_before[0]:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"  track \"{TITLE}\": {line_count} synced lines, a line every {min(gaps) / 1000:.2f}–{max(gaps) / 1000:.2f} s")
        print(f"  browser A: no clock fault; browser B: its clock injected {offset_ms:+g} ms off and {skew_ppm:+g} ppm fast"
              f" (window.__wavelengthClockFault)")
        print("  stamps: the true clock (performance.now() + Date.now()'s tick edges; the server's clock is this"
              " machine's) and the page's own synced server clock (window.__wavelength.clock)")
        if not args.quiet:
            print("\n  entry  line  time(s)   A err    B err    B - A   (ms; err = change on the true clock - LRC schedule;"
                  " busy = long tasks on that page's main thread while the line was due; timers N late = a 50 ms"
                  " probe timer in that page fired N ms late, from 300 ms before the line to its change)")
            entry_number = {}
            for k in matched:
                a, b = by_key["A"][k], by_key["B"][k]
                n = entry_number.setdefault(k[0], len(entry_number) + 1)
                print(f"  {n:5d}  {k[1]:4d}  {a['timeMs'] / 1000:7.2f}  {a['true_error']:+7.1f}  {b['true_error']:+7.1f}"
                      f"  {b['wall'] - a['wall']:+7.1f}"
                      + "".join(f"   {name} busy {c['busy']:.0f}" for name, c in (("A", a), ("B", b)) if c["busy"] >= 1)
                      + "".join(f"   {name} timers {c['stall']:.0f} late" for name, c in (("A", a), ("B", b)) if c["stall"] > 0))
        print()
        for name in "AB":
            skipped, repeated, backwards = sequence_faults(orders[name])
            print(f"  browser {name}: {len(orders[name])} line changes seen, {len(by_key[name])} distinct;"
                  f" lines skipped {skipped}, lit again {repeated}, steps backwards {backwards}")
        only_a = len(set(by_key["A"]) - set(by_key["B"]))
        only_b = len(set(by_key["B"]) - set(by_key["A"]))
        print(f"  line changes matched (same entry and line in both): {len(matched)}   only in A: {only_a}   only in B: {only_b}")
        if absolute:
            print(f"  |B - A| between the browsers (ms):  median {statistics.median(absolute):6.1f}   p95 {pct(absolute, .95):6.1f}"
                  f"   max {max(absolute):6.1f}   (n={len(absolute)}; signed median {statistics.median(diffs):+.1f})")
        print("  against the LRC schedule (entry start on the server clock - offset + line time), ms:")
        for name in "AB":
            rows = [by_key[name][k] for k in matched]
            print(f"    {name}, true clock:      {stats([r['true_error'] for r in rows])}")
            print(f"    {name}, page's clock:    {stats([r['page_error'] for r in rows])}")
            print(f"    {name}, page clock error (page - true) at the changes: {stats([r['clock_error'] for r in rows])}")
        for name in "AB":
            rows = [by_key[name][k] for k in matched]
            late = [r for r in rows if r["true_error"] > 50]
            busy = [r for r in late if r["busy"] >= 1]
            stalled = [r for r in late if r["stall"] >= r["true_error"] - 50]
            tasks = collected[name].get("longTasks") or []
            print(f"  browser {name}: {len(late)} changes more than 50 ms late: {len(busy)} while its main thread ran long tasks,"
                  f" {len(stalled)} while its timers were as late (within 50 ms); {len(tasks)} long tasks in all"
                  f" ({sum(t['duration'] for t in tasks):.0f} ms)")
        for name in "AB":
            bases = collected[name]["bases"]
            spread = [b["base"] - b["origin"] for b in bases]
            r = reports[name] or {}
            print(f"  browser {name}: Date.now() - (timeOrigin + performance.now()) over the run "
                  f"{min(spread):+.1f}..{max(spread):+.1f} ms ({len(bases)} calibrations); "
                  f"clock offset applied {r.get('clockOffsetMs', float('nan')):+.1f} ms, "
                  f"audio sync error {r.get('syncErrorMs') if r.get('syncErrorMs') is None else round(r['syncErrorMs'], 1)} ms, "
                  f"mode {r.get('mode')}")
    finally:
        for d in drivers.values():
            try:
                d.quit()
            except Exception:
                pass
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
