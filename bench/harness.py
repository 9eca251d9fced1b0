"""What the sync benchmarks share: a `wavelength serve` on a free port with a
bench user's station, the delay proxy that emulates slow links, the link
conditions measured, and percentile summaries.

sync_bench.py (SDK clients) and browser_listeners.py (Chromium listeners)
both import this; neither imports the other's internals, so there is no
import circle (sync_bench.py only calls browser_listeners.run_condition).
"""
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def create_station(server_url, name):
    """Signs up a bench user (bearer tokens) and returns their own station,
    with the user's access token as `ownerKey` for DJ commands."""
    handle = "bench" + "".join(c for c in f"{time.time_ns()}" if c.isdigit())[-14:]
    body = {"handle": handle, "displayName": name[:40], "password": "bench password", "tokens": True}
    request = urllib.request.Request(
        f"{server_url}/api/auth/signup", data=json.dumps(body).encode(),
        method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        created = json.load(response)
    station = created["station"]
    station["ownerKey"] = created["tokens"]["accessToken"]
    return station


def wait(predicate, timeout, step=0.02):
    """The predicate's first truthy value, polled every `step` s for at
    most `timeout` s; None when it never came (a benchmark reports that)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return None


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
    """A fresh `wavelength serve` with its own data folder and a bench user's station."""

    def __init__(self, binary, libraries=(), options=()):
        self.data = tempfile.mkdtemp(prefix="wavelength-syncbench-")
        self.port = free_port()
        args = [binary, "serve", "--data", self.data, "--port", str(self.port), "--ping-interval", "5", "--log-level", "warning",
                # A crowd from one address: the per-address limits would refuse it.
                "--signups-per-hour", "100000", "--guests-per-hour", "100000",
                "--web", os.environ.get("WAVELENGTH_WEB", os.path.join(ROOT, "web"))]
        for library in libraries:
            args += ["--library", library]
        args += list(options)
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


CONDITIONS = [
    ("loopback", None),
    ("100 ms RTT, ±30 ms jitter (symmetric)", (lambda: random.uniform(35, 65), lambda: random.uniform(35, 65))),
    ("asymmetric 60 ms out / 40 ms back", (lambda: random.uniform(59, 61), lambda: random.uniform(39, 41))),
]
