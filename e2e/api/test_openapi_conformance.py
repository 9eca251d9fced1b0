"""The OpenAPI document and the server can't drift apart: the document is
valid OpenAPI 3.0.3 (openapi-spec-validator), and schemathesis generates
requests from /openapi.json, schema-valid and not, sends them to a real
`wavelength serve`, and runs every check it has on the answers.

Bounded and repeatable: a fixed number of examples per operation, drawn
deterministically, so the same requests go out on every run and a failure is
a drift, never bad luck. Signed in with a bearer token, so the routes behind
sign-in are exercised too.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from pathlib import Path

import pytest

from wavelength_server import running_server

EXAMPLES = int(os.environ.get("WAVELENGTH_SCHEMA_EXAMPLES", "25"))


@pytest.fixture(scope="session")
def server():
    with running_server("schemathesis", ["--source-port", "0"]) as started:
        yield started


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


# The calls that end the session they are made with: run after the rest, or
# every call after the first logout would be refused 401 and check nothing.
SESSION_ENDING = ["/api/auth/logout", "/api/auth/password"]


def schemathesis(server, *selection: str) -> None:
    run = subprocess.run(
        ["schemathesis", "--config-file", str(Path(__file__).with_name("schemathesis.toml")), "run",
         server["base"] + "/openapi.json",
         "--phases", "examples,coverage,fuzzing", "--generation-deterministic", "--max-examples", str(EXAMPLES),
         "--no-color", "--header", f"Authorization: Bearer {server['token']}", *selection],
        capture_output=True, text=True, timeout=1800)
    print(run.stdout[run.stdout.find("SUMMARY"):])
    assert run.returncode == 0, f"{run.stdout[-12000:]}\n{run.stderr[-2000:]}"


def test_schemathesis_finds_nothing_with_every_check(server):
    """schemathesis's own command line, as an operator would run it: every
    check (enabled in schemathesis.toml: no 5xx, documented statuses, content types,
    headers and bodies, schema-valid requests accepted and invalid ones
    refused, 405 for undocumented methods, and the rest; schemathesis.toml
    names the one exception and why), through the
    examples, coverage and fuzzing phases, deterministic, so the same
    requests go out on every run and a failure is a drift, never bad luck.
    A station's stream is an endless body that no check can read to its end;
    StreamTests and test_field_clients.py read it as players do."""
    rest = [argument for path in SESSION_ENDING for argument in ("--exclude-path", path)]
    schemathesis(server, "--exclude-path", "/stream/{name}", *rest)
    schemathesis(server, *[argument for path in SESSION_ENDING for argument in ("--include-path", path)])
