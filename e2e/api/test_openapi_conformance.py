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
import urllib.request

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

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
