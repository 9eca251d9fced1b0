"""Together across a cluster: two `wavelength serve` nodes on one
PostgreSQL, a listener's browser on each. The node the owner signed up on
runs the station; the other relays it. Both pages play the same entry at
the same moment, through a skip the DJ makes on the first node.

The nodes share this machine's clock, as a cluster's nodes share one through
NTP, so the spread printed here is the relay's own. Timings are printed,
never asserted (a loaded machine delays audio)."""

import shutil
import socket

import pytest

from conftest import PHONE, Server
from helpers import wait_for
from postgres_server import Postgres, binaries
from test_sync import assert_together, report, wait_heard, web_audio_playing

pytestmark = pytest.mark.skipif(binaries() is None, reason="PostgreSQL is not installed (apt-get install postgresql)")


def free_port() -> int:
    # The node must know its own address before it starts (other nodes
    # forward its stations' requests there), so the port is picked here.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def node(folder, library, database: str, name: str) -> Server:
    port = free_port()
    options = [
        "--signups-per-hour", "100000", "--guests-per-hour", "100000", "--bcrypt-cost", "4",
        "--database", database, "--node-address", f"http://127.0.0.1:{port}", "--no-mdns",
    ]
    return Server(folder, port=port, libraries=[library], name=name, options=options)


def test_listeners_on_two_nodes_hear_the_same_moment(tone_library, tmp_path, browser, shot):
    with Postgres() as postgres:
        first = node(tmp_path / "a", tone_library, postgres.url, "node-a").start()
        try:
            # The nodes of a cluster share their signing keys (deploy/ says how).
            (tmp_path / "b").mkdir(mode=0o700)
            shutil.copytree(tmp_path / "a" / "keys", tmp_path / "b" / "keys")
            second = node(tmp_path / "b", tone_library, postgres.url, "node-b").start()
            try:
                owner = first.signup(display_name="Across")
                station = owner.station["id"]
                a = browser(PHONE)
                a.get(f"{first.base}/#/station/{station}")
                wait_for(a, web_audio_playing, "Web Audio never started on the first node")
                b = browser(PHONE)
                b.get(f"{second.base}/#/station/{station}")
                wait_for(b, web_audio_playing, "Web Audio never started on the second node")
                for d in (a, b):
                    wait_for(d, lambda d: report(d)["probes"] >= 6, "the clock was never probed")
                assert_together(a, b, "across two nodes")
                shot(b, "listener-on-a-relaying-node")

                # The DJ skips on the first node: the second hears the cut too.
                current = first.timeline(station)["current"]
                timeline = first.skip(station, owner.token, current["id"])
                entry = timeline["current"]
                for d in (a, b):
                    wait_heard(first, station, d, entry, "the skip didn't reach the page")
                assert_together(a, b, "across two nodes after the skip", entry_id=entry["id"])
            finally:
                second.stop()
        finally:
            first.stop()
