"""The OpenAPI document and the server can't drift apart: schemathesis
generates requests from /openapi.json, schema-valid and not, sends them to a
real `wavelength serve`, and runs every check on the answers (no 5xx, only
documented status codes, content types, headers and bodies as documented,
schema-valid requests accepted and invalid ones refused).

Bounded and repeatable: a fixed number of examples per operation, drawn
derandomized, so the same requests go out on every run and a failure is a
drift, never bad luck. Signed in with a bearer token, so the routes behind
sign-in are exercised too.
"""

from __future__ import annotations

import json
import os
import shutil
import re
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("WAVELENGTH_BIN", str(ROOT / ".build/debug/wavelength"))
EXAMPLES = int(os.environ.get("WAVELENGTH_SCHEMA_EXAMPLES", "25"))


# The line `wavelength serve` logs once it listens, with the port it bound
# (port 0: a port picked free here and bound later could be taken meanwhile).
ON_THE_AIR = re.compile(r"Wavelength is on the air at http://[^:]+:(\d+)")


@pytest.fixture(scope="session")
def server():
    data = Path(tempfile.mkdtemp(prefix="wavelength-schema-"))
    logs = ROOT / "test-artifacts/logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = open(logs / f"schemathesis-{os.getpid()}.log", "w")
    # Every request comes from 127.0.0.1: the per-address limits are lifted.
    process = subprocess.Popen(
        [BINARY, "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(data / "data"), "--bcrypt-cost", "4",
         "--signups-per-hour", "100000", "--guests-per-hour", "100000", "--no-analysis", "--source-port", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    base = None
    deadline = time.monotonic() + 120
    while True:
        if base is None:
            found = ON_THE_AIR.search(Path(log.name).read_text(errors="replace"))
            base = f"http://127.0.0.1:{found.group(1)}" if found else None
        if base is not None:
            try:
                with urllib.request.urlopen(base + "/health", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start; see {log.name}")
        time.sleep(0.1)
    body = json.dumps({"handle": "schemacheck", "displayName": "Schema Check",
                       "password": "schema password", "tokens": True}).encode()
    request = urllib.request.Request(base + "/api/auth/signup", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        token = json.load(answer)["tokens"]["accessToken"]
    yield {"base": base, "token": token}
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()
    shutil.rmtree(data, ignore_errors=True)


def test_the_served_document_is_valid_openapi_3_0_3(server):
    """Code generators (swift-openapi-generator, openapi-generator) read 3.0.3
    to the letter: no 3.1 `type: 'null'` or type lists, `nullable` instead.
    openapi-spec-validator checks the document the server serves."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    with urllib.request.urlopen(server["base"] + "/openapi.json", timeout=30) as answer:
        document = json.load(answer)
    assert document["openapi"] == "3.0.3"
    try:
        validate(document)
    except OpenAPIValidationError as error:
        pytest.fail(f"/openapi.json is not valid OpenAPI 3.0.3: {error.message} at {list(error.path)}")


@pytest.fixture(scope="session")
def api_schema(server):
    return schemathesis.openapi.from_url(server["base"] + "/openapi.json")


# A station's stream is an endless body, which a response check can't read
# to its end; StreamTests reads it as a player does.
schema = schemathesis.pytest.from_fixture("api_schema").exclude(path="/stream/{name}")


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_the_server_answers_as_its_openapi_document_says(case, server):
    case.call_and_validate(base_url=server["base"], headers={"Authorization": f"Bearer {server['token']}"})
