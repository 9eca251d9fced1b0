"""A client generated from the OpenAPI document works against the real server.

e2e/openapi-client is a Swift package of its own whose executable,
WavelengthAPICheck, is built with swift-openapi-generator's build plugin
from Sources/WavelengthServer/openapi.json (through a symlink, so there is no
second copy to drift). The test builds it and runs it against a freshly
started `wavelength serve`: health check, sign-up, login, who-am-I, creating a
station, listing stations, reading it back, and two calls answered with the
documented JSON error body (404 not_found, 400 invalid_name). A document the
generator refuses, generated code that doesn't compile, or an answer that
doesn't decode as documented fails the test.

The first build compiles the generator and its dependencies (OpenAPIKit, Yams,
swift-argument-parser): about three minutes on 2 cores. Its build folder is
e2e/openapi-client/.build (git-ignored), so a fresh clone builds it anew.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

# A fresh `wavelength serve` ($WAVELENGTH_BIN) on a free port, started the way
# the schemathesis test starts its own: this test's server is one schemathesis
# never touched, its log test-artifacts/logs/generated-client-<pid>.log.
from wavelength_server import ROOT, running_server

PACKAGE = ROOT / "e2e/openapi-client"
EXECUTABLE = "WavelengthAPICheck"
BUILD_TIMEOUT = int(os.environ.get("WAVELENGTH_OPENAPI_CLIENT_BUILD_TIMEOUT", "1800"))

# Each line the client prints for a call that answered as documented.
EXPECTED = [
    "ok getHealth: status ok",
    "ok signup:",
    "ok login:",
    "ok getMe:",
    "ok createStation:",
    "ok listStations:",
    "ok getStation:",
    "ok getStation: 404 not_found",
    "ok createStation: 400 invalid_name",
    "all calls answered as the OpenAPI document says",
]


def test_the_generator_reads_the_servers_own_document():
    """The generator's input is the server's document, not a copy."""
    link = PACKAGE / "Sources" / EXECUTABLE / "openapi.json"
    assert link.is_symlink(), f"{link} must be a symlink to Sources/WavelengthServer/openapi.json, not a copy"
    assert link.resolve() == (ROOT / "Sources/WavelengthServer/openapi.json").resolve()


def build_client() -> Path:
    logs = ROOT / "test-artifacts/logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / "openapi-client-build.log"
    with open(log, "w") as output:
        built = subprocess.run(["swift", "build", "--package-path", str(PACKAGE), "--product", EXECUTABLE],
                               stdout=output, stderr=subprocess.STDOUT, timeout=BUILD_TIMEOUT)
    if built.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-60:])
        pytest.fail(f"swift build of e2e/openapi-client failed (exit {built.returncode}); see {log}:\n{tail}")
    bin_path = subprocess.run(["swift", "build", "--package-path", str(PACKAGE), "--show-bin-path"],
                              capture_output=True, text=True, check=True, timeout=300).stdout.strip()
    return Path(bin_path) / EXECUTABLE


def test_a_client_generated_from_the_document_talks_to_the_server():
    # Built before the server starts, so the server doesn't sit through the
    # generator's first build.
    executable = build_client()
    with running_server("generated-client") as server:
        ran = subprocess.run([str(executable), server["base"]], capture_output=True, text=True, timeout=120)
    report = f"exit {ran.returncode}\nstdout:\n{ran.stdout}\nstderr:\n{ran.stderr}"
    assert ran.returncode == 0, report
    lines = ran.stdout.splitlines()
    for expected in EXPECTED:
        assert any(line.startswith(expected) for line in lines), f"no line starting {expected!r}\n{report}"
