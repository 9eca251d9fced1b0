#!/usr/bin/env python3
"""Many stream listeners on one station, Wavelength and Debian's icecast2 side
by side on this machine.

    python3 bench/stream_load.py [--listeners 1000] [--seconds 60]

Needs a release build (swift build -c release --scratch-path .build-release
--product wavelength), ffmpeg and icecast2 (apt-get install icecast2).

Wavelength serves its demo station at /stream/{id}.mp3: its own ffmpeg
encodes the timeline at 128 kbps. icecast2 gets the same kind of stream from
an ffmpeg source client that encodes one of the demo library's tracks, looped,
at 128 kbps. Each listener connects from its own loopback address (127.0.x.y),
asks for ICY metadata, and reads everything as it comes. Over the measured
window the script reads, from /proc, the CPU of each server with its encoder
(Wavelength's ffmpeg children; icecast2's ffmpeg source) and each server's
resident memory before and after the listeners joined (one warm-up listener
first, so the figure is the listeners' and not the stream's start). A
listener "fell behind" when it got less than 90 % of 16,000 bytes a second
over the window, or was cut off.

The listeners come from several client processes (--clients, one per 2,500
by default): one Python process can't read 10,000 streams on its own.
--only wavelength measures Wavelength alone (a 10,000-listener run:
--listeners 10000 --only wavelength).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
RATE = 128_000 // 8  # bytes a second at 128 kbps


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def tree(pid: int) -> list[int]:
    """The process and its descendants."""
    found = [pid]
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for c in child.read_text().split():
            found += tree(int(c))
    return found


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def wait_http(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except Exception:
            time.sleep(0.2)
    raise RuntimeError(f"{url} never answered")


class Listener:
    def __init__(self):
        self.bytes = 0
        self.cut = False


async def listen(host: str, port: int, path: str, address: str, listener: Listener, stop: asyncio.Event) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
        writer.write(f"GET {path} HTTP/1.0\r\nHost: {host}:{port}\r\nIcy-MetaData: 1\r\nUser-Agent: bench\r\n\r\n".encode())
        await writer.drain()
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                listener.cut = True
                break
            listener.bytes += len(chunk)
        writer.close()
    except Exception:
        listener.cut = True


async def client_crowd(host, port, path, first: int, count: int, mark, finish, results, pace: int = 1) -> None:
    """One client process's share of the crowd: listeners `first`…, each from
    its own loopback address. Their byte counts go to `results` when the
    parent sets `mark` (the window starts) and `finish` (it ends)."""
    stop = asyncio.Event()
    listeners = [Listener() for _ in range(count)]
    tasks = []
    for n, listener in enumerate(listeners):
        i = first + n
        address = f"127.0.{1 + i // 250}.{1 + i % 250}"
        tasks.append(asyncio.create_task(listen(host, port, path, address, listener, stop)))
        if n % 50 == 49:
            # A crowd arrives over a moment, not in one instant: 1,000
            # listeners a second from all the client processes together.
            await asyncio.sleep(0.05 * pace)
    for event in (mark, finish):
        while not event.is_set():
            await asyncio.sleep(0.05)
        results.put((first, [(l.bytes, l.cut) for l in listeners]))
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def client_process(*args) -> None:
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(client_crowd(*args))


def crowd(host: str, port: int, path: str, count: int, seconds: float, server_pids, clients: int) -> dict:
    """`count` listeners from `clients` processes (one Python process can't
    read 10,000 streams at 128 kbps on its own). A warm-up listener comes
    first, so the figures are of the listeners, not of the stream starting."""
    import multiprocessing
    context = multiprocessing.get_context("fork")
    warm = context.Event()
    warm_done = context.Event()
    warm_results = context.Queue()
    warmup = context.Process(target=client_process, args=(host, port, path, count, 1, warm, warm_done, warm_results))
    warmup.start()
    time.sleep(5)  # the encoder started and the warm-up listener is past its burst
    before_rss = rss_bytes(server_pids()[0])
    mark, finish, results = context.Event(), context.Event(), context.Queue()
    shares = [count // clients + (1 if c < count % clients else 0) for c in range(clients)]
    workers, first = [], 0
    for share in shares:
        worker = context.Process(
            target=client_process, args=(host, port, path, first, share, mark, finish, results, clients))
        worker.start()
        workers.append(worker)
        first += share
    time.sleep(5 + count / 1000)  # everyone is in (1,000 a second) and past the burst
    pids = server_pids()
    cpu0 = sum(cpu_seconds(p) for p in pids)
    t0 = time.monotonic()
    mark.set()
    starts = dict(results.get() for _ in workers)
    time.sleep(seconds)
    pids = set(pids) | set(server_pids())
    cpu1 = sum(cpu_seconds(p) for p in pids)
    t1 = time.monotonic()
    after_rss = rss_bytes(server_pids()[0])
    finish.set()
    ends = dict(results.get() for _ in workers)
    for process in workers:
        process.join(timeout=60)
    warm.set()
    warm_done.set()
    warm_results.get()
    warm_results.get()
    warmup.join(timeout=60)
    window = t1 - t0
    got, cut = [], 0
    for first in starts:
        for (b0, _), (b1, was_cut) in zip(starts[first], ends[first]):
            got.append(b1 - b0)
            cut += was_cut
    behind = sum(1 for g in got if g < 0.9 * RATE * window)
    return {
        "listeners": count,
        "window_s": round(window, 1),
        "cpu_s": round(cpu1 - cpu0, 2),
        "cpu_s_per_listener_minute": (cpu1 - cpu0) / (count * window / 60),
        "memory_per_listener_kb": (after_rss - before_rss) / count / 1024,
        "fell_behind": max(behind, cut),
        "median_kbps": sorted(got)[len(got) // 2] * 8 / window / 1000,
    }


def icecast_config(folder: Path, port: int, listeners: int) -> Path:
    (folder / "log").mkdir()
    os.chmod(folder, 0o777)
    os.chmod(folder / "log", 0o777)
    config = folder / "icecast.xml"
    config.write_text(f"""<icecast>
  <limits><clients>{listeners + 100}</clients><sources>2</sources><queue-size>524288</queue-size>
    <burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size></limits>
  <authentication><source-password>bench</source-password><admin-user>admin</admin-user>
    <admin-password>bench</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{port}</port></listen-socket>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>{folder}/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>nobody</user><group>nogroup</group></changeowner></security>
</icecast>
""")
    os.chmod(config, 0o644)
    return config


class SkipIcecast(Exception):
    """--only wavelength."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listeners", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--wavelength", default=str(ROOT / ".build-release/release/wavelength"))
    parser.add_argument("--clients", type=int, default=0,
                        help="client processes (default: one per 2,500 listeners)")
    parser.add_argument("--only", choices=("wavelength", "icecast2"), help="measure one server only")
    args = parser.parse_args()
    if not (1 <= args.listeners <= 60_000):
        parser.error("--listeners must be 1…60000")
    clients = args.clients or max(1, (args.listeners + 2499) // 2500)
    for tool in ("ffmpeg", "icecast2"):
        if not shutil.which(tool):
            print(f"{tool} is needed (apt-get install {tool})", file=sys.stderr)
            return 2
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        # Wavelength, its demo library and station.
        port = free_port()
        data = scratch / "data"
        server = subprocess.Popen(
            [args.wavelength, "serve", "--data", str(data), "--port", str(port), "--no-analysis", "--source-port", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_http(f"http://127.0.0.1:{port}/health")
            station = (data / "owner-keys.txt").read_text().split()[0]
            if args.only != "icecast2":
                results["wavelength"] = crowd(
                    "127.0.0.1", port, f"/stream/{station}.mp3", args.listeners, args.seconds,
                    lambda: tree(server.pid), clients)
        finally:
            server.terminate()
            server.wait(timeout=30)

        # icecast2, fed the same kind of stream by an ffmpeg source client.
        track = next(p for p in sorted((data / "demo-library").rglob("*")) if p.suffix in (".mp3", ".flac", ".m4a", ".ogg", ".opus"))
        ice_port = free_port()
        folder = scratch / "icecast"
        folder.mkdir()
        os.chmod(scratch, 0o711)  # icecast2 runs as nobody and writes its logs there
        config = icecast_config(folder, ice_port, args.listeners)
        icecast = subprocess.Popen(["icecast2", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        source = None
        try:
            if args.only == "wavelength":
                raise SkipIcecast
            wait_http(f"http://127.0.0.1:{ice_port}/status-json.xsl")
            source = subprocess.Popen(
                ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", str(track),
                 "-vn", "-c:a", "libmp3lame", "-b:a", "128k", "-ar", "44100", "-ac", "2", "-content_type", "audio/mpeg",
                 "-f", "mp3", f"icecast://source:bench@127.0.0.1:{ice_port}/stream.mp3"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                # (Icecast 2.4.4's status JSON can be malformed; look for the mount.)
                with urllib.request.urlopen(f"http://127.0.0.1:{ice_port}/status-json.xsl") as answer:
                    if "/stream.mp3" in answer.read().decode(errors="replace"):
                        break
                time.sleep(0.2)
            time.sleep(2)  # a burst's worth in its queue
            results["icecast2"] = crowd(
                "127.0.0.1", ice_port, "/stream.mp3", args.listeners, args.seconds,
                lambda: [icecast.pid, source.pid], clients)
        except SkipIcecast:
            pass
        finally:
            for process in (source, icecast):
                if process:
                    process.terminate()
                    process.wait(timeout=30)

    for name, r in results.items():
        print(f"{name:10}: {r['listeners']} listeners for {r['window_s']} s: CPU {r['cpu_s']} s "
              f"(with its encoder) = {r['cpu_s_per_listener_minute'] * 1000:.2f} ms per listener-minute; "
              f"memory {r['memory_per_listener_kb']:.1f} KB per listener; {r['fell_behind']} fell behind; "
              f"median {r['median_kbps']:.1f} kbps")
    w, i = results.get("wavelength"), results.get("icecast2")
    if w and i and i["cpu_s_per_listener_minute"] > 0:
        print(f"CPU per listener, Wavelength ÷ icecast2: {w['cpu_s_per_listener_minute'] / i['cpu_s_per_listener_minute']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
