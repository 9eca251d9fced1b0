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
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spread import pairwise_spread  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def summary(values):
    return "p50 %7.2f  p95 %7.2f  p99 %7.2f  (n=%d)" % (pct(values, .5), pct(values, .95), pct(values, .99), len(values))


class Server:
    def __init__(self, binary, libraries=()):
        self.data = tempfile.mkdtemp(prefix="wavelength-syncbench-")
        self.port = free_port()
        args = [binary, "serve", "--data", self.data, "--port", str(self.port), "--ping-interval", "5", "--log-level", "warning",
                "--web", os.environ.get("WAVELENGTH_WEB", os.path.join(ROOT, "web"))]
        for library in libraries:
            args += ["--library", library]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/health", timeout=1)
                break
            except Exception:
                if time.time() > deadline or self.proc.poll() is not None:
                    raise SystemExit("server did not start")
                time.sleep(0.1)
        # A bench user's own station, DJ'd with the user's bearer token.
        from browser_listeners import create_station
        station = create_station(self.url, "Sync bench")
        self.station, self.frequency, self.key = station["id"], station.get("frequency"), station["ownerKey"]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def skip(self):
        body = json.dumps({"id": f"bench-skip-{time.time()}", "command": {"op": "skip"}}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/stations/{self.station}/commands", data=body, method="POST",
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"})
        try:
            return json.load(urllib.request.urlopen(request))
        except urllib.error.HTTPError as error:
            print(f"  skip refused: {error.code} {error.read().decode()}")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # Connections still open through the delay proxy can hold up a
            # graceful stop; the benchmark is done with this server anyway.
            self.proc.kill()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.data, ignore_errors=True)


class DelayProxy:
    """Forwards TCP, holding each chunk for forward()/back() ms, in order."""

    def __init__(self, target_port, forward, back):
        self.target_port = target_port
        self.forward = forward
        self.back = back
        self.port = free_port()

    async def start(self):
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", self.port)

    async def handle(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            await asyncio.gather(
                self.pipe(client_reader, server_writer, self.forward),
                self.pipe(server_reader, client_writer, self.back),
                return_exceptions=True)
        except (OSError, asyncio.CancelledError):
            pass  # a client or the server went away: the link just closes

    async def pipe(self, reader, writer, delay):
        queue = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def release():
            while True:
                due, data = await queue.get()
                if data is None:
                    writer.close()
                    return
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(release())
        last = 0.0
        while True:
            try:
                data = await reader.read(65536)
            except OSError:
                data = b""
            if not data:
                await queue.put((0, None))
                break
            # FIFO: a chunk never overtakes the one before it.
            last = max(last, loop.time() + max(0.0, delay()) / 1000)
            await queue.put((last, data))
        await sender


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


CONDITIONS = [
    ("loopback", None),
    ("100 ms RTT, ±30 ms jitter (symmetric)", (lambda: random.uniform(35, 65), lambda: random.uniform(35, 65))),
    ("asymmetric 60 ms out / 40 ms back", (lambda: random.uniform(59, 61), lambda: random.uniform(39, 41))),
]


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
