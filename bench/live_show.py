#!/usr/bin/env python3
"""One live show, measured: how long after the source sends a moment of
audio its listeners hear it, and what 200 stream listeners of a live station
cost.

    python3 bench/live_show.py [--listeners 200] [--seconds 30]

Needs a release build (swift build -c release --scratch-path .build-release
--product wavelength) and ffmpeg.

Latency. The source is this script, speaking Icecast's source protocol
(PUT with Basic auth, as BUTT does) and sending a 128 kbps MP3 at real-time
pace: silence with a 0.2 s 1 kHz beep every 7 s. The script notes when each
beep's first byte went out. Three players listen:
  * "relay, in from the start": GET /live/{id}.mp3 as soon as the source is on;
  * "relay, joined mid-show": the same, 15 s later (it gets Icecast's 64 KiB
    burst, so it starts about 4 s behind the live edge), and one more with
    ?edge=1, as the app's player asks (an 8 KiB burst);
  * "station stream": GET /stream/{id}.mp3, joined before the show (the
    station's encoder decodes the relay and encodes it again).
Each one's bytes are decoded afterwards and the beeps found in them. A
player that starts on its first byte and never stalls hears a beep at (its
first byte's arrival + the beep's place in what it received): that minus the
beep's send time is the latency printed. The app's web player plays the
relay, so the relay figures are the app's; the script also prints when the
app's timeline switched to the show (the live entry's start) after the source
connected.

Cost. An ffmpeg source client loops a demo track into the station, and
`--listeners` players read /stream/{id}.mp3 (the station's re-encoded
stream), then as many read the relay /live/{id}.mp3; for each, the server's
CPU with its ffmpeg children over the window, as bench/stream_load.py measures.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stream_load import crowd, free_port, tree, wait_http  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PERIOD = 7.0  # seconds between beeps
FIRST = 2.0  # the first beep's place in the source's audio
SHOW = 40  # seconds of beeps the source sends
RATE = 16_000  # bytes a second at 128 kbps


def api(port: int, method: str, path: str, body=None, token: str | None = None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def beeps_mp3(folder: Path) -> bytes:
    path = folder / "beeps.mp3"
    expression = f"if(lt(mod(t-{FIRST}+{PERIOD}\\,{PERIOD})\\,0.2)*gte(t\\,{FIRST})\\,0.8*sin(2*PI*1000*t)\\,0)"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", f"aevalsrc={expression}:s=44100:d={SHOW}",
                    "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", str(path)],
                   check=True)
    return path.read_bytes()


def beep_times(mp3: bytes) -> list[float]:
    """Where the beeps start in `mp3`, in seconds of its audio."""
    # A stream joined mid-frame: start at the first 128 kbps 44.1 kHz frame
    # header, or ffmpeg may lock onto a false one and misread every frame.
    starts = [i for i in (mp3.find(b"\xff\xfb\x90"), mp3.find(b"\xff\xfb\x92")) if i >= 0]
    lead = 0
    if starts:
        lead = min(starts)
        mp3 = mp3[lead:]
    pcm = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "mp3", "-i", "pipe:0", "-ac", "1", "-ar", "8000",
                          "-f", "s16le", "pipe:1"], input=mp3, capture_output=True).stdout
    samples = memoryview(pcm).cast("h")
    found, window, last = [], 80, -10.0  # 10 ms windows
    skipped = lead / RATE  # the bytes before the first frame still took their time to arrive
    for start in range(0, len(samples) - window, window):
        part = samples[start:start + window]
        peak = max(abs(s) for s in part)
        # A 1 kHz tone crosses zero 20 times in 10 ms at 8 kHz; music rarely
        # holds that loud and that pure.
        crossings = sum(1 for a, b in zip(part, part[1:]) if (a < 0) != (b < 0))
        beep = peak > 8000 and 17 <= crossings <= 23
        at = start / 8000
        if beep and at - last > 1.0:
            found.append(at + skipped)
        if beep:
            last = at
    return found


class Player(threading.Thread):
    """Reads an HTTP stream from when it is told, noting its first byte's arrival."""

    def __init__(self, port: int, path: str, seconds: float):
        super().__init__(daemon=True)
        self.port, self.path, self.seconds = port, path, seconds
        self.first: float | None = None
        self.raw = bytearray()
        self.chunked = False

    @property
    def data(self) -> bytes:
        """The audio, with HTTP/1.1 chunked framing taken off."""
        if not self.chunked:
            return bytes(self.raw)
        out, at, raw = bytearray(), 0, self.raw
        while True:
            end = raw.find(b"\r\n", at)
            if end < 0:
                break
            size = int(raw[at:end].split(b";")[0] or b"0", 16)
            if size == 0 or end + 2 + size > len(raw):
                out += raw[end + 2:end + 2 + size]
                break
            out += raw[end + 2:end + 2 + size]
            at = end + 2 + size + 2
        return bytes(out)

    def run(self):
        deadline = time.time() + self.seconds
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port)) as s:
                    s.sendall(f"GET {self.path} HTTP/1.0\r\nHost: bench\r\nUser-Agent: bench-{id(self)}\r\n\r\n".encode())
                    head = b""
                    while b"\r\n\r\n" not in head:
                        chunk = s.recv(4096)
                        if not chunk:
                            raise ConnectionError
                        head += chunk
                    if b" 200 " not in head.split(b"\r\n")[0]:
                        raise ConnectionError
                    head, body = head.split(b"\r\n\r\n", 1)
                    self.chunked = b"transfer-encoding: chunked" in head.lower()
                    s.settimeout(1)
                    if body:
                        self.first = time.time()
                        self.raw += body
                    while time.time() < deadline:
                        try:
                            chunk = s.recv(65536)
                        except socket.timeout:
                            continue
                        if not chunk:
                            return
                        if self.first is None:
                            self.first = time.time()
                        self.raw += chunk
                    return
            except (ConnectionError, OSError):
                time.sleep(0.05)  # not on the air yet


def latency(name: str, player: Player, sent: list[float]) -> str:
    if player.first is None:
        return f"{name}: heard nothing"
    heard = [player.first + at for at in beep_times(player.data)]
    figures = []
    for h in heard:
        if h > sent[-1] + PERIOD:
            break  # the show is over: the robot's music (tones among it) is no beep
        # The beep sent last before it was heard (beeps are PERIOD apart).
        candidates = [s for s in sent if s <= h]
        if candidates:
            figures.append(h - candidates[-1])
    if not figures:
        return f"{name}: no beep heard"
    figures.sort()
    return (f"{name}: {len(figures)} beeps, latency median {figures[len(figures) // 2] * 1000:.0f} ms "
            f"(min {figures[0] * 1000:.0f}, max {figures[-1] * 1000:.0f})")


def measure_latency(port: int, station: str, key: str, source_port: int, token: str, folder: Path) -> list[str]:
    audio = beeps_mp3(folder)
    stream = Player(port, f"/stream/{station}.mp3", SHOW + 15)
    stream.start()
    time.sleep(3)  # the station's stream is up before the show
    early = Player(port, f"/live/{station}.mp3", SHOW + 5)
    late = Player(port, f"/live/{station}.mp3", SHOW - 15 + 5)
    late_edge = Player(port, f"/live/{station}.mp3?edge=1", SHOW - 15 + 5)
    early.start()
    auth = base64.b64encode(f"source:{key}".encode()).decode()
    source = socket.create_connection(("127.0.0.1", source_port))
    source.sendall((f"PUT /live/{station} HTTP/1.1\r\nHost: bench\r\nAuthorization: Basic {auth}\r\n"
                    "Content-Type: audio/mpeg\r\nice-name: Beeps\r\nExpect: 100-continue\r\n\r\n").encode())
    answer = source.recv(4096)
    if b"100" not in answer.split(b"\r\n")[0]:
        raise RuntimeError(f"the source was refused: {answer!r}")
    connected = time.time()
    sent: list[float] = []
    start = time.time()
    step = RATE // 10  # a tenth of a second of audio at a time
    next_beep = FIRST
    for offset in range(0, len(audio), step):
        media = offset / RATE
        wait = start + media - time.time()
        if wait > 0:
            time.sleep(wait)
        if media + step / RATE > next_beep:
            sent.append(start + next_beep)
            next_beep += PERIOD
        source.sendall(audio[offset:offset + step])
        if offset == 15 * RATE // step * step:
            late.start()
            late_edge.start()
    source.close()
    for player in (early, late, late_edge, stream):
        player.join()
    timeline = api(port, "GET", f"/api/stations/{station}/history?limit=5", token=token)
    show = next((e for e in timeline if e["source"] == "live"), None)
    lines = [
        latency("relay, in from the start", early, sent),
        latency("relay, joined 15 s into the show (Icecast's 64 KiB burst)", late, sent),
        latency("relay with ?edge=1 (the app's player), joined 15 s into the show", late_edge, sent),
        latency("station stream /stream (re-encoded)", stream, sent),
    ]
    if show:
        lines.append(f"the timeline's live entry started {(show['start'] / 1000 - connected) * 1000:.0f} ms after the source connected")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--wavelength", default=str(ROOT / ".build-release/release/wavelength"))
    args = parser.parse_args()
    if not (1 <= args.listeners <= 10_000):
        parser.error("--listeners must be 1…10000")
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        port, source_port = free_port(), free_port()
        data = scratch / "data"
        server = subprocess.Popen(
            [args.wavelength, "serve", "--data", str(data), "--port", str(port), "--no-analysis",
             "--source-port", str(source_port), "--bcrypt-cost", "4", "--live-grace", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ffmpeg = None
        try:
            wait_http(f"http://127.0.0.1:{port}/health")
            who = api(port, "POST", "/api/auth/signup",
                      {"handle": "bench", "displayName": "Bench DJ", "password": "correct horse battery", "tokens": True})
            token, station = who["tokens"]["accessToken"], who["station"]["id"]
            key = api(port, "POST", "/api/me/stream-key", token=token)["key"]
            for line in measure_latency(port, station, key, source_port, token, scratch):
                print(line)
            time.sleep(4)  # past the grace: the show is over

            track = next(p for p in sorted((data / "demo-library").rglob("*")) if p.suffix in (".mp3", ".flac", ".m4a", ".ogg"))
            ffmpeg = subprocess.Popen(
                ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", str(track), "-vn",
                 "-c:a", "libmp3lame", "-b:a", "128k", "-ar", "44100", "-ac", "2", "-content_type", "audio/mpeg",
                 "-f", "mp3", f"icecast://source:{key}@127.0.0.1:{source_port}/live/{station}"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while not api(port, "GET", f"/api/stations/{station}/source", token=token)["onAir"]:
                if time.monotonic() > deadline:
                    raise RuntimeError("the source never came on the air")
                time.sleep(0.2)
            time.sleep(2)
            pids = lambda: tree(server.pid)  # noqa: E731 (the server and its ffmpeg children, not the source)
            for name, path in (("station stream /stream (re-encoded)", f"/stream/{station}.mp3"),
                               ("relay /live", f"/live/{station}.mp3")):
                r = asyncio.run(crowd("127.0.0.1", port, path, args.listeners, args.seconds, pids))
                print(f"{name}: {r['listeners']} listeners for {r['window_s']} s: server CPU {r['cpu_s']} s "
                      f"({r['cpu_s'] / r['window_s'] * 100:.1f} % of a core, with its ffmpeg) = "
                      f"{r['cpu_s_per_listener_minute'] * 1000:.2f} ms per listener-minute; "
                      f"{r['fell_behind']} fell behind; median {r['median_kbps']:.1f} kbps")
                time.sleep(12)  # the stream's encoder stops a grace after its last listener
        finally:
            if ffmpeg:
                ffmpeg.terminate()
                ffmpeg.wait(timeout=30)
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
