#!/usr/bin/env python3
"""Sync benchmark: N SDK clients (`wavelength tune --json`) on one station,
with injected clock offset and skew, over loopback and over emulated slow links.

It reports, as p50/p95/p99: the clock offset error, the time to converge
under 5 ms, the pairwise playback spread between clients, tune-in to first
sound, and the spread right after a skip.

Every client runs on this machine, so the server's clock (the wall clock) is
the truth each client's estimate is checked against. Clients get their own
injected offset (±50 ms) and skew (±50 ppm) so an estimator that answered 0
would fail.

Slow links: this kernel has no netem qdisc ("Specified qdisc kind is
unknown"), so a userspace proxy delays each direction's bytes between the
clients and the server the way `netem delay 50ms 15ms` would: a delay drawn
uniformly from 35–65 ms per chunk, order kept (a FIFO queue).

Then, per condition, headless Chromium listeners run the web app (Web Audio
mode) on a station of their own, with injected clock error too, and are
measured the same way through the page's window.__wavelength.report() (see
bench/browser_listeners.py; --browsers 0 skips them).

    python3 bench/sync_bench.py [--clients 8] [--seconds 30] [--browsers 2] [--binary .build/release/wavelength]

The real audio output of two browsers (PulseAudio null sinks and a click
track, cross-correlated) is measured apart by bench/audio_spread.py.
"""
import argparse
import asyncio
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import CONDITIONS, ROOT, DelayProxy, Server, summary  # noqa: E402
from spread import pairwise_spread  # noqa: E402


async def run_clients(binary, server_url, frequency, count, seconds, skip_at, on_skip):
    rng = random.Random(7)
    procs = []
    for _ in range(count):
        offset = rng.uniform(-50, 50)
        skew = rng.uniform(-50, 50)
        procs.append(await asyncio.create_subprocess_exec(
            binary, "tune", frequency, "--server", server_url, "--json", "--silent", "--every", "0.1",
            "--duration", str(seconds), f"--clock-offset={offset:.3f}", f"--clock-skew-ppm={skew:.3f}",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL))
    started = time.time() * 1000
    skip_wall = None

    async def skipper():
        nonlocal skip_wall
        await asyncio.sleep(skip_at)
        skip_wall = time.time() * 1000
        await asyncio.get_running_loop().run_in_executor(None, on_skip)

    async def collect(proc):
        lines = []
        async for raw in proc.stdout:
            try:
                lines.append(json.loads(raw))
            except ValueError:
                pass
        await proc.wait()
        return lines

    skip_task = asyncio.create_task(skipper())
    reports = await asyncio.gather(*(collect(p) for p in procs))
    await skip_task
    return started, skip_wall, reports


def analyse(name, started, skip_wall, reports):
    clock_errors, converge, first_sound = [], [], []
    positions = []  # per client: list of (wall, entryID, position error)
    for lines in reports:
        series = [(l["wallTime"], l["clockErrorMs"]) for l in lines if l.get("clockErrorMs") is not None]
        clock_errors += [abs(e) for t, e in series if t - started >= 10_000]
        converged = None
        for i, (t, e) in enumerate(series):
            if all(abs(x) < 5 for _, x in series[i:]):
                converged = t - started
                break
        if converged is not None:
            converge.append(converged)
        sounds = [l["firstSoundMs"] for l in lines if l.get("firstSoundMs") is not None]
        if sounds:
            first_sound.append(sounds[0])
        positions.append([
            (l["wallTime"], l["entryID"], l["actualMs"] - (l["wallTime"] - l["entryStart"]))
            for l in lines if l.get("actualMs") is not None and l.get("entryStart") is not None])
    # Pairwise spread: reports of two clients within 60 ms on the same entry.
    spread, after_skip = pairwise_spread(positions, 60, skip_wall)
    print(f"\n== {name}: {len(reports)} clients")
    print(f"  clock offset error (ms, after 10 s):   {summary(clock_errors)}")
    print(f"  time to converge under 5 ms (ms):      {summary(converge)}   ({len(converge)}/{len(reports)} converged)")
    print(f"  playback spread, pairwise (ms):        {summary(spread)}")
    print(f"  spread in the 3 s after a skip (ms):   {summary(after_skip)}")
    print(f"  tune-in to first sound (ms):           {summary(first_sound)}")


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    release = os.path.join(ROOT, ".build/release/wavelength")
    parser.add_argument("--binary", default=release if os.path.exists(release) else os.path.join(ROOT, ".build/debug/wavelength"))
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--browsers", type=int, default=2,
                        help="headless Chromium listeners per condition, after the SDK clients (0: none)")
    args = parser.parse_args()
    print(f"binary {args.binary}; {args.clients} SDK clients, {args.seconds:.0f} s per condition, skip at half time")
    if args.browsers:
        print(f"then {args.browsers} Chromium listeners (web app, Web Audio) per condition on a station of their own; "
              "see bench/browser_listeners.py")
        import browser_listeners

    for name, delays in CONDITIONS:
        print(f"running: {name} …", file=sys.stderr)
        server = Server(args.binary)
        try:
            url = server.url
            if delays:
                proxy = DelayProxy(server.port, *delays)
                await proxy.start()
                url = f"http://127.0.0.1:{proxy.port}"
            started, skip_wall, reports = await run_clients(
                args.binary, url, server.frequency, args.clients, args.seconds, args.seconds / 2, server.skip)
            analyse(name, started, skip_wall, reports)
            if args.browsers:
                print(f"running: {name}, browsers …", file=sys.stderr)
                await browser_listeners.run_condition(name, server, url, args.browsers, args.seconds)
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
