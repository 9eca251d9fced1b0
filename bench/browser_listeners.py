#!/usr/bin/env python3
"""Browser listeners for the sync benchmark: headless Chromium running the web
app (Web Audio mode) on one station, on loopback or through the benchmark's
delay proxy, each with an injected clock offset and skew.

Each page is read through its measurement hook, window.__wavelength.report():
the file position being heard (from the Web Audio schedule, output latency
included), the page's estimate of the server clock, and the true wall clock
at that same instant. The server runs on this machine, so its clock is the
wall clock, and:

- clock offset error = serverTime − wallTime;
- playback error = positionMs − (wallTime − entryStart + offsetMs);
- pairwise spread = the difference of two pages' playback errors (each is
  already referred to its own instant, so samples a few ms apart compare);
- tune-in to first sound = from the tune-in action (a hash change on the
  already open app, as a click on the dial makes) to the first sample heard.

The browsers tune in to the measured station together, right after opening
the app; after the session each tunes in to a few fresh stations (HTTP cache
off), one browser at a time, as flipping the dial does, so tune-in has more
than one sample per browser. Both kinds are listed apart too: on one machine,
browsers tuning in at once share its CPUs, which real devices don't.

Run alone:  python3 bench/browser_listeners.py [--binary …] [--browsers 2] [--seconds 30]
or from bench/sync_bench.py, which calls run_condition() for every condition.
"""
import argparse
import asyncio
import json
import os
import random
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import CONDITIONS, DelayProxy, Server, create_station, summary, wait  # noqa: E402
from spread import pairwise_spread  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
TUNE_LOCK = threading.Lock()
REPORT_JS = "return window.__wavelength && window.__wavelength.report ? window.__wavelength.report() : null"


def new_browser(fault):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
        "--disable-dev-shm-usage", "--disable-gpu", "--mute-audio", "--no-first-run",
        "--window-size=390,844",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "window.__wavelengthClockFault = %s;" % json.dumps(fault)})
    return driver


def tune_in(driver, station_id, timeout=20):
    """Tunes the open app in to station_id; returns its report once sound plays."""
    driver.execute_script("location.hash = arguments[0]", f"#/station/{station_id}")

    def heard():
        r = driver.execute_script(REPORT_JS)
        return r if r and r.get("positionMs") is not None and r.get("firstSoundMs") is not None else None

    return wait(heard, timeout)


def tune_details(driver, r, kind):
    """Where a tune-in's time went (for BENCH_VERBOSE)."""
    marks = driver.execute_script(
        "return Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, m.startTime]))")
    tuned = r.get("tunedAt") or 0
    return {
        "kind": kind,
        "firstSoundMs": round(r["firstSoundMs"]),
        "openMs": round(marks.get("wavelength:open", tuned) - tuned),
        "snapshotMs": round(marks.get("wavelength:snapshot", tuned) - tuned),
        "positionS": round(r["positionMs"] / 1000, 1),
        "probes": r.get("probes"),
        "load": {k: round(v) if isinstance(v, float) else v for k, v in (r["details"].get("load") or {}).items()},
    }


def to_dial(driver):
    driver.execute_script("location.hash = '#/'")
    wait(lambda: driver.execute_script(
        "return document.querySelector('.dial-screen')?.dataset.state === 'ready'"), 20)


def browser_session(page_url, server_url, station_id, index, fault, trials, seconds, barrier, started, results, errors):
    """One Chromium: tune-in trials, then the measured session on station_id."""
    driver = None
    details = []
    try:
        driver = new_browser(fault)
        driver.set_script_timeout(30)
        driver.get(page_url + "/#/")
        if not wait(lambda: driver.execute_script(
                "return document.querySelector('.dial-screen')?.dataset.state === 'ready'"), 60):
            raise RuntimeError("the app never loaded")
        barrier.wait(timeout=120)
        started.set()
        # The measured session: the first tune-in since the app opened.
        tuned = time.time() * 1000
        r = tune_in(driver, station_id)
        cold = [r["firstSoundMs"]] if r else []
        if r:
            details.append(tune_details(driver, r, "together"))
        samples = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r = driver.execute_script(REPORT_JS)
            if r:
                samples.append(r)
            time.sleep(0.1)
        # Then a few more tune-ins, to fresh stations (flipping the dial).
        warm = []
        to_dial(driver)
        for n in range(trials):
            # One browser at a time: on one machine, two tuning in at once
            # share its CPUs (the simultaneous first tune-ins show that case).
            with TUNE_LOCK:
                trial = create_station(server_url, f"Bench tune-in {index}-{n} {time.time():.3f}")
                r = tune_in(driver, trial["id"])
                to_dial(driver)
            if r:
                warm.append(r["firstSoundMs"])
                details.append(tune_details(driver, r, "alone"))
        first_sounds = cold + warm
        results[index] = {"tuned": tuned, "samples": samples, "firstSounds": first_sounds, "cold": cold, "warm": warm,
                          "details": details, "mode": samples[-1]["mode"] if samples else None}
    except Exception as error:  # a browser that fails is reported, not fatal
        errors.append(f"browser {index}: {error!r}")
        try:
            barrier.abort()
        except Exception:
            pass
    finally:
        if driver is not None:
            driver.quit()


def playback_error(r):
    return r["positionMs"] - (r["wallTime"] - r["entryStart"] + r["offsetMs"])


def analyse(name, results, skip_wall, count):
    clock_errors, converge, first_sound, play_errors = [], [], [], []
    series = []
    for result in results:
        if not result:
            continue
        tuned = result["tuned"]
        first_sound += result["firstSounds"]
        points = [(r["wallTime"], r["serverTime"] - r["wallTime"]) for r in result["samples"]]
        clock_errors += [abs(e) for t, e in points if t - tuned >= 10_000]
        for i, (t, e) in enumerate(points):
            if all(abs(x) < 5 for _, x in points[i:]):
                converge.append(max(0.0, t - tuned))
                break
        heard = [(r["wallTime"], r["entryID"], playback_error(r)) for r in result["samples"] if r.get("positionMs") is not None]
        play_errors += [abs(e) for t, _, e in heard if t - tuned >= 10_000]
        series.append(heard)
    spread, after_skip = pairwise_spread(series, 150, skip_wall)
    modes = sorted({r["mode"] for r in results if r})
    print(f"\n== {name}: {count} Chromium listeners ({', '.join(str(m) for m in modes)})")
    print(f"  clock offset error (ms, after 10 s):   {summary(clock_errors)}")
    print(f"  time to converge under 5 ms (ms):      {summary(converge)}   ({len(converge)}/{count} converged)")
    print(f"  playback error vs true clock (ms):     {summary(play_errors)}")
    print(f"  playback spread, pairwise (ms):        {summary(spread)}")
    print(f"  spread in the 3 s after a skip (ms):   {summary(after_skip)}")
    print(f"  tune-in to first sound (ms):           {summary(first_sound)}")
    cold = [v for r in results if r for v in r["cold"]]
    warm = [v for r in results if r for v in r["warm"]]
    print(f"    all browsers at once, right after opening the app: {', '.join('%.0f' % v for v in cold)}; "
          f"one browser at a time, flipping to fresh stations: {', '.join('%.0f' % v for v in warm)}")
    if os.environ.get("BENCH_VERBOSE"):
        for r in results:
            for d in (r or {}).get("details", []):
                print("   ", d)
    return {"clock": clock_errors, "converge": converge, "spread": spread, "afterSkip": after_skip, "firstSound": first_sound}


async def run_condition(name, server, page_url, count=2, seconds=30, trials=3, seed=11):
    """Runs `count` browsers against `server` (a harness.Server), loading
    the app from page_url (the server, or the delay proxy in front of it),
    and skips at half time. Selenium blocks, so browsers run in threads while
    this event loop keeps the proxy moving."""
    rng = random.Random(seed)
    station = create_station(server.url, f"Bench browsers {time.time():.3f}")
    barrier = threading.Barrier(count)
    started = threading.Event()
    results, errors = [None] * count, []
    loop = asyncio.get_running_loop()
    tasks = []
    for index in range(count):
        fault = {"offsetMs": round(rng.uniform(-50, 50), 3), "skewPpm": round(rng.uniform(-50, 50), 3)}
        tasks.append(loop.run_in_executor(
            None, browser_session, page_url, server.url, station["id"], index, fault, trials, seconds,
            barrier, started, results, errors))
    skip_wall = None

    async def skipper():
        # A skip at half time of the measured session.
        nonlocal skip_wall
        while not started.is_set():
            if all(t.done() for t in tasks):
                return
            await asyncio.sleep(0.05)
        await asyncio.sleep(seconds / 2)
        skip_wall = time.time() * 1000
        await loop.run_in_executor(None, skip_current, server, station["id"], station["ownerKey"])

    skip_task = asyncio.create_task(skipper())
    await asyncio.gather(*tasks)
    await skip_task
    for error in errors:
        print(f"  {error}")
    if os.environ.get("BENCH_DUMP"):
        with open(os.environ["BENCH_DUMP"], "w") as f:
            json.dump({"name": name, "skipWall": skip_wall, "results": results}, f)
    return analyse(name, results, skip_wall, count)


def skip_current(server, station_id, key):
    with urllib.request.urlopen(f"{server.url}/api/stations/{station_id}/timeline", timeout=10) as response:
        current = json.load(response).get("current")
    body = {"id": f"bench-browser-skip-{time.time()}", "command": {"op": "skip"}}
    if current:
        body["command"]["entryID"] = current["id"]
    request = urllib.request.Request(
        f"{server.url}/api/stations/{station_id}/commands", data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=10).read()
    except urllib.error.HTTPError as error:
        print(f"  skip refused: {error.code} {error.read().decode()}")


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    release = os.path.join(root, ".build/release/wavelength")
    parser.add_argument("--binary", default=release if os.path.exists(release) else os.path.join(root, ".build/debug/wavelength"))
    parser.add_argument("--browsers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--trials", type=int, default=3, help="extra tune-ins per browser after the session")
    parser.add_argument("--only", default="", help="run only conditions whose name contains this")
    args = parser.parse_args()
    for name, delays in CONDITIONS:
        if args.only not in name:
            continue
        print(f"running browsers: {name} …", file=sys.stderr)
        server = Server(args.binary)
        try:
            url = server.url
            if delays:
                proxy = DelayProxy(server.port, *delays)
                await proxy.start()
                url = f"http://127.0.0.1:{proxy.port}"
            await run_condition(name, server, url, args.browsers, args.seconds, args.trials)
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
