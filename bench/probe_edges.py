#!/usr/bin/env python3
"""Tries the newest surfaces as an attacker would (issue 54) and says what
held: private uploads by id, one address passing for a crowd, a room
calibration reaching other homes or taking forged figures, reports from one
address, blocks, a revoked co-DJ, and a client's unmasked frame.

    python3 bench/probe_edges.py                 # starts its own server ($WAVELENGTH_BIN)
    python3 bench/probe_edges.py --base URL      # an open server (sign-ups allowed)

Prints one line per check, "held" or "OPEN: what happened", and exits 1 if
anything is open. Every wait is for an answer: a socket that must not hear
something is asked for a pong afterwards, and whatever it was sent before
the pong has arrived by then. Not probed here, but tested: uploads that
stall (UploadsTests), audit reasons shown inert (AdminTests), goodbyes
under a flood (ShutdownTests).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "e2e/api"))


def call(base, method, path, token=None, body=None, raw=None, content_type=None):
    """(status, parsed JSON or bytes)."""
    headers = {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    if raw is not None:
        data, headers["Content-Type"] = raw, content_type or "application/octet-stream"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, got = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, got = error.code, error.read()
    try:
        return status, json.loads(got)
    except ValueError:
        return status, got


def signup(base, name):
    handle = f"{name.lower()}{secrets.token_hex(3)}"
    status, answer = call(base, "POST", "/api/auth/signup", body={
        "handle": handle, "displayName": name, "password": "probe password", "tokens": True})
    assert status in (200, 201), answer
    return {"id": answer["person"]["id"], "token": answer["tokens"]["accessToken"], "station": answer["station"]["id"]}


def guest(base, name):
    status, answer = call(base, "POST", "/api/auth/guest", body={"displayName": name, "tokens": True})
    assert status in (200, 201), answer
    return {"id": answer["person"]["id"], "token": answer["tokens"]["accessToken"]}


class Socket:
    """A station WebSocket (websocket-client) that keeps what it reads."""

    def __init__(self, base, station, token=None):
        import websocket

        headers = [f"Authorization: Bearer {token}"] if token else []
        self.ws = websocket.create_connection(
            base.replace("http://", "ws://") + f"/api/stations/{station}/live?v=1", header=headers, timeout=60)
        self.seen: list[dict] = []

    def send(self, message):
        self.ws.send(json.dumps(message))

    def until(self, predicate, patience: float = 90):
        """Reads until a message matches; returns it (earlier ones are kept in
        `seen`). Only for what must come: the bound turns a broken server's
        silence into a failure, not a hang (pings would keep a read alive)."""
        deadline = time.monotonic() + patience
        while True:
            if time.monotonic() > deadline:
                raise RuntimeError("no answer came")
            text = self.ws.recv()
            if not text:
                raise RuntimeError("the connection closed")
            message = json.loads(text)
            self.seen.append(message)
            if predicate(message):
                return message

    def settle(self):
        """Everything the station sent this socket so far has been read."""
        nonce = secrets.token_hex(4)
        self.send({"type": "ping", "nonce": nonce})
        self.until(lambda m: m.get("type") == "pong" and m.get("nonce") == nonce)

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


def test_song(folder: Path) -> bytes:
    path = folder / "probe.mp3"
    subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=523:duration=8",
         "-metadata", "title=Probe Song", "-metadata", "artist=Probe Band", "-b:a", "96k", str(path)], check=True)
    return path.read_bytes()


def check_private_upload(base, folder):
    ana, bo = signup(base, "Ana"), signup(base, "Bo")
    status, receipt = call(base, "POST", "/api/uploads?name=probe.mp3", ana["token"], raw=test_song(folder))
    assert status == 201, receipt
    track = receipt["upload"]["track"]["id"]
    opened = []
    if call(base, "PUT", f"/api/me/likes/{track}", bo["token"])[0] < 400:
        opened.append("liked by another")
    if call(base, "POST", f"/api/stations/{bo['station']}/commands", bo["token"],
            body={"id": "p-append", "command": {"op": "append", "trackID": track}})[0] < 400:
        opened.append("queued on another's station")
    call(base, "POST", f"/api/stations/{ana['station']}/commands", ana["token"],
         body={"id": "p-next", "command": {"op": "queueNext", "trackID": track}})
    listener = Socket(base, ana["station"])  # on the air now
    try:
        listener.until(lambda m: m.get("type") == "snapshot")
        if call(base, "GET", f"/api/tracks/{track}/audio")[0] == 200:
            opened.append("audio by id without the station")
        if call(base, "GET", f"/api/tracks/{track}/audio?station={bo['station']}")[0] == 200:
            opened.append("audio through a station not playing it")
    finally:
        listener.close()
    return opened


def check_one_address(base):
    owner = signup(base, "Host")
    watcher = Socket(base, owner["station"], owner["token"])
    crowd = []
    try:
        snapshot = watcher.until(lambda m: m.get("type") == "snapshot")
        for _ in range(24):
            crowd.append(Socket(base, owner["station"]))
        for member in crowd:
            member.until(lambda m: m.get("type") == "snapshot")
        # The station's count now: its owner and at most 16 of the address's.
        counted = call(base, "GET", f"/api/stations/{owner['station']}")[1]["listeners"]
        opened = [f"24 signed-out sockets and their owner counted as {counted} listeners"] if counted > 17 else []
        entry = ((snapshot.get("snapshot") or {}).get("timeline") or {}).get("current") or {}
        if not entry.get("id"):
            opened.append("no song was on the air to react to")
        else:
            for member in crowd:
                for k in range(10):
                    member.send({"type": "react", "id": f"r{k}", "entryID": entry["id"], "emoji": "🔥"})
            for member in crowd:
                member.settle()
            refused = sum(1 for member in crowd for m in member.seen if m.get("type") == "error" and m.get("code") == "too_fast")
            if 240 - refused > 10:
                opened.append(f"{240 - refused} reactions taken from one address (its limit is 10)")
        return opened
    finally:
        for member in crowd:
            member.close()
        watcher.close()


def check_room_calibration(base):
    owner = signup(base, "Meter")
    meter = Socket(base, owner["station"], owner["token"])
    elsewhere = Socket(base, owner["station"])
    try:
        for s in (meter, elsewhere):
            s.until(lambda m: m.get("type") == "snapshot")
        meter.send({"type": "room", "signal": {"kind": "call", "session": "probe"}})
        meter.settle()
        echo = next((m for m in meter.seen if m.get("type") == "room" and m["signal"].get("kind") == "call"), None)
        elsewhere.send({"type": "room", "signal": {"kind": "result", "session": "probe",
                                                   "results": [{"device": "victim", "delayMs": 1999}]}})
        elsewhere.settle()
        refusal = next((m for m in elsewhere.seen if m.get("type") == "error"), None)
        opened = []
        if not refusal or refusal.get("code") != "calibration_refused":
            opened.append(f"a forged figure was answered {refusal.get('code') if refusal else 'with nothing'}")
        if any(m.get("type") == "room" for m in elsewhere.seen):
            opened.append("a listener in another home got the call")
        if not echo or not (echo["signal"].get("code") or "").isdigit():
            opened.append("the meter got no code to show")
        meter.settle()
        if any(m.get("type") == "room" and m["signal"].get("kind") == "result" for m in meter.seen):
            opened.append("the forged figure was passed on")
        return opened
    finally:
        meter.close()
        elsewhere.close()


def check_reports_per_address(base):
    target = signup(base, "Target")
    taken = 0
    for n in range(40):
        reporter = guest(base, f"Guest {n}")
        status, _ = call(base, "POST", "/api/reports", reporter["token"],
                         body={"subject": "person", "id": target["id"], "reason": "spam"})
        taken += status == 201
    return [f"{taken} reports in a row from one address (its limit is 30 an hour)"] if taken > 30 else []


def check_blocks(base):
    ana, bo = signup(base, "Blocker"), signup(base, "Blocked")
    call(base, "PUT", f"/api/people/{ana['id']}/follow", bo["token"])
    call(base, "PUT", f"/api/blocks/{bo['id']}", ana["token"])
    opened = []
    if call(base, "PUT", f"/api/people/{ana['id']}/follow", bo["token"])[0] < 400:
        opened.append("the blocked person follows the blocker")
    hers, his = Socket(base, ana["station"], ana["token"]), Socket(base, ana["station"], bo["token"])
    try:
        for s in (hers, his):
            s.until(lambda m: m.get("type") == "chatRoom")
        his.send({"type": "chat", "id": "c1", "text": "can you hear me"})
        his.until(lambda m: m.get("type") == "chat" and m.get("ref") == "c1")
        hers.settle()
        if any(m.get("type") == "chat" and m["message"]["person"]["id"] == bo["id"] for m in hers.seen):
            opened.append("the blocked person's chat reached the blocker")
        call(base, "PATCH", f"/api/stations/{ana['station']}/party", ana["token"], body={"mode": "requests"})
        _, tracks = call(base, "GET", "/api/library/tracks?limit=20")
        status, _ = call(base, "POST", f"/api/stations/{ana['station']}/commands", bo["token"],
                         body={"id": "b-req", "command": {"op": "request", "trackID": tracks[-1]["id"]}})
        if status < 400:
            opened.append("the blocked person's request reached the blocker's party")
    finally:
        hers.close()
        his.close()
    return opened


def check_revoked_codj(base):
    host, stranger = signup(base, "Host"), signup(base, "Stranger")
    status, made = call(base, "POST", "/api/stations", host["token"], body={"name": "Private", "visibility": "code"})
    station = made["station"]["id"]
    call(base, "PUT", f"/api/stations/{station}/codjs/{stranger['id']}", host["token"])
    call(base, "DELETE", f"/api/stations/{station}/codjs/{stranger['id']}", host["token"])
    status, _ = call(base, "GET", f"/api/stations/{station}", stranger["token"])
    return [f"a revoked co-DJ who was no member still reads the private station ({status})"] if status < 400 else []


def check_unmasked_frame(base):
    host, port = base.removeprefix("http://").split(":")
    owner = signup(base, "Framer")
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall((f"GET /api/stations/{owner['station']}/live?v=1 HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += raw.recv(4096)
        if b" 101 " not in head.split(b"\r\n")[0]:
            return ["the upgrade was refused"]
        rest = head.split(b"\r\n\r\n", 1)[1]
        payload = b'{"type":"resync"}'
        raw.sendall(bytes([0x81, len(payload)]) + payload)  # no mask bit
        data = rest
        while True:
            # Frames: the close (0x88) carries its code in its first two bytes.
            while len(data) >= 2:
                length = data[1] & 0x7F
                start = 2 + (2 if length == 126 else 8 if length == 127 else 0)
                if length == 126 and len(data) >= 4:
                    length = struct.unpack(">H", data[2:4])[0]
                elif length == 127 and len(data) >= 10:
                    length = struct.unpack(">Q", data[2:10])[0]
                if len(data) < start + length:
                    break
                if data[0] & 0x0F == 0x8:
                    code = struct.unpack(">H", data[start:start + 2])[0] if length >= 2 else None
                    return [] if code == 1002 else [f"an unmasked frame was closed with {code}"]
                data = data[start + length:]
            more = raw.recv(65536)
            if not more:
                return ["an unmasked frame got no close frame"]
            data += more


CHECKS = [
    ("an unshared upload stays its uploader's, whoever learned its id", check_private_upload),
    ("one address counts as a few signed-out listeners and reacts within one limit", check_one_address),
    ("a room calibration reaches only its caller's devices and takes figures only from the caller", check_room_calibration),
    ("one address files at most its hour's reports", check_reports_per_address),
    ("a block holds on the server: chat, follows, requests", check_blocks),
    ("a revoked co-DJ goes back to what they were", check_revoked_codj),
    ("an unmasked client frame is closed with 1002", check_unmasked_frame),
]


def probe(base: str) -> dict[str, list[str]]:
    """{check: what was open (empty: it held)}, printing each as it ends."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="wavelength-probe-") as folder:
        for name, check in CHECKS:
            try:
                opened = check(base, Path(folder)) if check is check_private_upload else check(base)
            except Exception as error:  # a check that breaks is reported, not hidden
                opened = [f"the check itself failed: {error!r}"]
            results[name] = opened
            print(f"{'held' if not opened else 'OPEN'}: {name}" + ("" if not opened else f" ({'; '.join(opened)})"), flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="an open server's address; without it a fresh one is started")
    args = parser.parse_args()
    if args.base:
        results = probe(args.base.rstrip("/"))
    else:
        from wavelength_server import running_server

        with running_server("probe", extra=[]) as server:
            results = probe(server["base"])
    opened = [name for name, found in results.items() if found]
    print(f"{len(results) - len(opened)} of {len(results)} held")
    return 1 if opened else 0


if __name__ == "__main__":
    sys.exit(main())
