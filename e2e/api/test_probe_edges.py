"""The attacker's probe of the newest surfaces (bench/probe_edges.py) against
a fresh `wavelength serve`: every check must hold. The probe also runs on its
own against any server (`--base`), and says what held."""

from __future__ import annotations

import sys
from pathlib import Path

from wavelength_server import running_server

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from probe_edges import probe  # noqa: E402


def test_the_newest_surfaces_hold_against_the_probe():
    with running_server("probe-edges", extra=[]) as server:
        results = probe(server["base"])
    opened = {name: found for name, found in results.items() if found}
    assert not opened, opened
