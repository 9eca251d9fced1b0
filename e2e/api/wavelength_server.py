"""A fresh `wavelength serve` ($WAVELENGTH_BIN) for the API tests: on a free
port, its own data folder, a signed-up user with a bearer token.

Every request comes from 127.0.0.1, so the per-address sign-up limits are
lifted. Its log is test-artifacts/logs/<name>-<pid>.log.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("WAVELENGTH_BIN", str(ROOT / ".build/debug/wavelength"))

# The lines `wavelength serve` logs once it listens, with the ports it bound
# (port 0: a port picked free here and bound later could be taken meanwhile).
ON_THE_AIR = re.compile(r"Wavelength is on the air at http://[^:]+:(\d+)")
SOURCES_AT = re.compile(r"Live sources connect at icecast://[^:]+:(\d+)/")


def request(base: str, method: str, path: str, token: str | None = None, body: dict | None = None,
            headers: dict | None = None):
    """(status, headers, parsed JSON or raw bytes) of one call."""
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json"} if data else {}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    all_headers.update(headers or {})
    call = urllib.request.Request(base + path, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(call, timeout=30) as answer:
            raw, status, got = answer.read(), answer.status, dict(answer.headers)
    except urllib.error.HTTPError as error:
        raw, status, got = error.read(), error.code, dict(error.headers)
    try:
        return status, got, json.loads(raw)
    except ValueError:
        return status, got, raw


@contextlib.contextmanager
def running_server(name: str, extra: list[str] | None = None, handle: str = "schemacheck"):
    """{"base", "token", "station" (the user's own), "source_port" (None
    unless `--source-port` is given in `extra`), "log" (its path)}."""
    data = Path(tempfile.mkdtemp(prefix=f"wavelength-{name}-"))
    logs = ROOT / "test-artifacts/logs"
    logs.mkdir(parents=True, exist_ok=True)
    log_path = logs / f"{name}-{os.getpid()}.log"
    log = open(log_path, "w")
    arguments = extra if extra is not None else ["--source-port", "0"]
    process = subprocess.Popen(
        [BINARY, "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(data / "data"), "--bcrypt-cost", "4",
         "--signups-per-hour", "100000", "--guests-per-hour", "100000", "--no-analysis", "--no-mdns", *arguments],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        base = None
        deadline = time.monotonic() + 120
        while True:
            if base is None:
                found = ON_THE_AIR.search(log_path.read_text(errors="replace"))
                base = f"http://127.0.0.1:{found.group(1)}" if found else None
            if base is not None:
                try:
                    with urllib.request.urlopen(base + "/health", timeout=5) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {log_path}")
            time.sleep(0.1)
        status, _, signed_up = request(base, "POST", "/api/auth/signup", body={
            "handle": handle, "displayName": "Field Check", "password": "field password", "tokens": True})
        assert status in (200, 201), signed_up
        sources = SOURCES_AT.search(log_path.read_text(errors="replace"))
        yield {"base": base, "token": signed_up["tokens"]["accessToken"],
               "station": (signed_up.get("station") or {}).get("id"),
               "source_port": int(sources.group(1)) if sources else None, "log": log_path}
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(data, ignore_errors=True)
