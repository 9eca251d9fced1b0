"""The field's own clients against a real `wavelength serve`, and Debian's
icecast2 side by side as the reference: what an operator meets the day they
plug in the tool they already use.

- liquidsoap goes live with `chunked=true` (a chunked `SOURCE`, an empty
  `Host:`), and a title update sent to the main port, as broadcast software
  sends it, reaches the station's `/stream` while mpv plays it.
- ezstream (libshout) plays a playlist: each song's title reaches `/stream`.
- A listener's answer is icecast2's: `HTTP/1.0 200 OK`, every header
  icecast2 sends, and the audio raw with ICY titles every `icy-metaint`
  bytes (read here byte by byte, as a hardware radio reads it); ffmpeg
  decodes it with no error.
- `/status-json.xsl` has every field icecast2's has, of the same JSON types,
  dates written as icecast2 writes them, and the mount named as asked.

Each wait is for an event (a line from mpv, an answer), bounded by a deadline
only so that a broken server fails the test instead of hanging it.
"""

from __future__ import annotations

import base64
import os
import queue
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from wavelength_server import request, running_server

WAIT = 90  # seconds: a bound for a broken server, never a measured figure

@pytest.fixture(scope="module")
def server():
    with running_server("field-clients", ["--source-port", "0"], handle="fieldcheck") as started:
        status, _, key = request(started["base"], "POST", "/api/me/stream-key", token=started["token"])
        assert status == 201, key
        started["key"] = key["key"]
        yield started


class Lines:
    """A process's output, line by line, waited on as it comes."""

    def __init__(self, arguments: list[str], **options):
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        errors="replace", **options)
        self.seen: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def wait_for(self, predicate, what: str) -> str:
        deadline = time.monotonic() + WAIT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"never saw {what}; last lines: {self.seen[-15:]}")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                pytest.fail(f"the process ended before {what}; last lines: {self.seen[-15:]}")
            self.seen.append(line)
            if predicate(line):
                return line

    def stop(self):
        self.process.kill()
        self.process.wait()


def titles_of(url: str) -> Lines:
    """mpv playing `url` to no audio device, printing each ICY title it reads."""
    return Lines(["mpv", "--no-config", "--ao=null", "--no-video", "--msg-level=all=info", url])


def wait_on_air(server, station: str, on_air: bool = True) -> dict:
    deadline = time.monotonic() + WAIT
    while True:
        status, _, source = request(server["base"], "GET", f"/api/stations/{station}/source", token=server["token"])
        assert status == 200, source
        if source["onAir"] == on_air:
            return source
        assert time.monotonic() < deadline, f"the station never went {'on' if on_air else 'off'} the air: {source}"
        time.sleep(0.2)


def liquidsoap(port: int, key: str, mount: str, name: str, folder: Path, chunked: bool = True) -> Lines:
    script = folder / "show.liq"
    script.write_text(f"""
settings.init.allow_root.set(true)
settings.log.stdout.set(true)
settings.log.file.set(false)
output.icecast(%mp3(bitrate=128, samplerate=44100), host="127.0.0.1", port={port}, password="{key}",
  mount="{mount}", chunked={str(chunked).lower()}, name="{name}", sine(440.))
""")
    return Lines(["liquidsoap", str(script)])


def test_liquidsoap_goes_live_chunked_and_a_title_update_reaches_the_stream(server, tmp_path):
    station = server["station"]
    show = liquidsoap(server["source_port"], server["key"], f"/live/{station}", "Chunked Show", tmp_path)
    try:
        show.wait_for(lambda line: "Connection setup was successful" in line, "liquidsoap connected")
        wait_on_air(server, station)
        player = titles_of(f"{server['base']}/stream/{station}.mp3")
        try:
            player.wait_for(lambda line: "icy-title:" in line and "Chunked Show" in line, "the show's title on /stream")
            # A title update as broadcast software sends it, to the main port.
            query = urllib.parse.urlencode(
                {"mode": "updinfo", "mount": f"/live/{station}", "song": "Nina Simone - Feeling Good"})
            auth = base64.b64encode(f"source:{server['key']}".encode()).decode()
            status, headers, body = request(server["base"], "GET", f"/admin/metadata?{query}",
                                            headers={"Authorization": f"Basic {auth}"})
            assert status == 200, body
            assert b"<return>1</return>" in body
            player.wait_for(lambda line: "icy-title: Nina Simone - Feeling Good" in line, "the new title on /stream")
        finally:
            player.stop()
        status, _, icestats = request(server["base"], "GET", f"/status-json.xsl?mount=/stream/{station}.mp3")
        assert icestats["icestats"]["source"]["title"] == "Nina Simone - Feeling Good"
        # A wrong key is refused on the main port as on the source port.
        bad = base64.b64encode(b"source:wrong").decode()
        status, _, body = request(server["base"], "GET", f"/admin/metadata?{query}",
                                  headers={"Authorization": f"Basic {bad}"})
        assert status == 401, body
        assert body["error"]["code"] == "unauthorized"
    finally:
        show.stop()
    wait_on_air(server, station, on_air=False)
    assert "sent no request head" not in server["log"].read_text(errors="replace")


def test_ezstream_plays_a_playlist_and_each_songs_title_reaches_the_stream(server, tmp_path):
    station = server["station"]
    songs = []
    for number, title in enumerate(["First Light", "Second Wind"]):
        song = tmp_path / f"{number}.mp3"
        subprocess.run(
            ["ffmpeg", "-v", "error", "-f", "lavfi", "-i", f"sine=f={440 + 110 * number}:d=6", "-ar", "44100",
             "-ac", "2", "-b:a", "128k", "-metadata", "artist=Ezstream Band", "-metadata", f"title={title}",
             "-id3v2_version", "3", str(song)], check=True)
        songs.append(song)
    playlist = tmp_path / "playlist.txt"
    playlist.write_text("".join(f"{song}\n" for song in songs))
    config = tmp_path / "ezstream.xml"
    config.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<ezstream>
  <servers><server><protocol>HTTP</protocol><hostname>127.0.0.1</hostname><port>{server['source_port']}</port>
    <user>source</user><password>{server['key']}</password></server></servers>
  <streams><stream><mountpoint>/live/{station}</mountpoint><format>MP3</format>
    <stream_name>Playlist Show</stream_name></stream></streams>
  <intakes><intake><type>playlist</type><filename>{playlist}</filename></intake></intakes>
</ezstream>
""")
    os.chmod(config, 0o600)  # it holds the stream key; ezstream refuses a config others can write
    source = Lines(["ezstream", "-v", "-c", str(config)])
    try:
        wait_on_air(server, station)
        player = titles_of(f"{server['base']}/stream/{station}.mp3")
        try:
            for title in ("First Light", "Second Wind"):
                player.wait_for(lambda line, title=title: f"icy-title: Ezstream Band - {title}" in line,
                                f"{title}'s title on /stream")
        finally:
            player.stop()
    finally:
        source.stop()
    wait_on_air(server, station, on_air=False)


def answer_head(port: int, path: str, metadata: bool = True) -> tuple[socket.socket, str, bytes]:
    """A listener's raw request, as a small ICY reader sends it: the answer's
    head and what came after it."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: field-test\r\n"
                       f"{'Icy-MetaData: 1' if metadata else 'X-No: 1'}\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(4096)
        assert chunk, f"closed before the head ended: {received!r}"
        received += chunk
    head, rest = received.split(b"\r\n\r\n", 1)
    return connection, head.decode("latin-1"), rest


def headers_of(head: str) -> dict[str, str]:
    return {name.strip().lower(): value.strip()
            for name, value in (line.split(":", 1) for line in head.split("\r\n")[1:])}


def read_exactly(connection: socket.socket, have: bytes, count: int) -> tuple[bytes, bytes]:
    while len(have) < count:
        chunk = connection.recv(65536)
        assert chunk, "the stream closed"
        have += chunk
    return have[:count], have[count:]


@pytest.fixture(scope="module")
def icecast(server):
    """Debian's icecast2 on a free port with liquidsoap as its source (it
    sends `ice-audio-info`, so icecast2 lists channels and samplerate).

    icecast2 drops to `nobody` and then opens its log: its folder is in /tmp
    itself, since the test run's own temporary folders are 0700 and nobody
    could not reach into them."""
    folder = Path(tempfile.mkdtemp(prefix="wavelength-icecast-", dir="/tmp"))
    (folder / "log").mkdir()
    os.chmod(folder, 0o711)
    os.chmod(folder / "log", 0o777)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = folder / "icecast.xml"
    config.write_text(f"""<icecast>
  <limits><clients>20</clients><sources>2</sources></limits>
  <authentication><source-password>field</source-password><admin-user>admin</admin-user>
    <admin-password>field</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{port}</port></listen-socket>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>{folder}/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>nobody</user><group>nogroup</group></changeowner></security>
</icecast>
""")
    os.chmod(config, 0o644)
    daemon = subprocess.Popen(["icecast2", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    source = None
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert daemon.poll() is None and time.monotonic() < deadline, "icecast2 did not start"
                time.sleep(0.1)
        source = liquidsoap(port, "field", "/reference.mp3", "Reference Show", folder, chunked=False)
        source.wait_for(lambda line: "Connection setup was successful" in line, "liquidsoap connected to icecast2")
        yield {"port": port}
    finally:
        if source:
            source.stop()
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_listener_gets_icecasts_answer_with_the_audio_unframed(server, icecast):
    _, reference, _ = answer_head(icecast["port"], "/reference.mp3")
    port = int(server["base"].rsplit(":", 1)[1])
    connection, head, rest = answer_head(port, f"/stream/{server['station']}.mp3")
    with connection:
        assert head.split("\r\n")[0] == "HTTP/1.0 200 OK"
        ours, theirs = headers_of(head), headers_of(reference)
        assert set(theirs) - set(ours) == set(), f"icecast2 sends {sorted(theirs)}, we send {sorted(ours)}"
        assert "transfer-encoding" not in ours and "content-length" not in ours
        for name in ("content-type", "cache-control", "expires", "pragma", "icy-metadata", "ice-audio-info"):
            if name in theirs:
                assert ours[name].lower() == theirs[name].lower(), name
        assert ours["icy-url"].startswith("http://127.0.0.1:") and ours["icy-url"].endswith(f"/#/station/{server['station']}")
        # The audio raw: every icy-metaint bytes a length byte and a title
        # block, never a chunk size.
        metaint = int(ours["icy-metaint"])
        for _ in range(3):
            audio, rest = read_exactly(connection, rest, metaint)
            assert audio[:1] != b"" and not re.match(rb"^[0-9a-fA-F]+\r\n", audio)
            length, rest = read_exactly(connection, rest, 1)
            block, rest = read_exactly(connection, rest, length[0] * 16)
            if block:
                assert block.rstrip(b"\0").startswith(b"StreamTitle='") and block.rstrip(b"\0").endswith(b"';"), block


def test_ffmpeg_decodes_the_stream_with_no_error(server):
    decoded = subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-t", "6", "-i", f"{server['base']}/stream/{server['station']}.mp3",
         "-f", "null", "-"], capture_output=True, text=True, timeout=WAIT)
    assert decoded.returncode == 0 and decoded.stderr.strip() == "", decoded.stderr


ISO8601 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$")


def test_status_json_reads_as_icecasts(server, icecast):
    station = server["station"]
    show = liquidsoap(server["source_port"], server["key"], f"/live/{station}", "Status Show", Path(tempfile.mkdtemp()))
    try:
        wait_on_air(server, station)
        # The station's stream runs while someone plays it.
        player = titles_of(f"{server['base']}/stream/{station}.mp3")
        try:
            player.wait_for(lambda line: "icy-title:" in line, "a title on /stream")
            _, _, theirs = request(f"http://127.0.0.1:{icecast['port']}", "GET", "/status-json.xsl")
            _, _, ours = request(server["base"], "GET", "/status-json.xsl")
            reference = theirs["icestats"]
            sources = ours["icestats"]["source"]
            sources = sources if isinstance(sources, list) else [sources]
            for key, value in reference.items():
                if key != "source":
                    assert type(ours["icestats"].get(key)) is type(value), key
            assert ours["icestats"]["host"] == "127.0.0.1"  # a host name, as icecast2's: no port
            for key in ("server_start_iso8601",):
                assert ISO8601.match(ours["icestats"][key]), ours["icestats"][key]
            live = next(source for source in sources if source["listenurl"].endswith(f"/live/{station}.mp3"))
            for mount in (live, next(source for source in sources if "/stream/" in source["listenurl"])):
                for key, value in reference["source"].items():
                    if key == "dummy":
                        continue  # icecast2's own placeholder
                    assert key in mount, f"{key} missing from {sorted(mount)}"
                    assert type(mount[key]) is type(value), f"{key}: {mount[key]!r} vs icecast2's {value!r}"
                assert ISO8601.match(mount["stream_start_iso8601"]), mount["stream_start_iso8601"]
            assert live["channels"] == reference["source"]["channels"] == 2
            assert live["samplerate"] == reference["source"]["samplerate"] == 44100
            # Asked by frequency, the mount is named by frequency.
            _, _, view = request(server["base"], "GET", f"/api/stations/{station}", token=server["token"])
            frequency = view["frequency"]
            _, _, one = request(server["base"], "GET", f"/status-json.xsl?mount=/stream/{frequency}.mp3")
            assert one["icestats"]["source"]["listenurl"].endswith(f"/stream/{frequency}.mp3")
        finally:
            player.stop()
    finally:
        show.stop()
    wait_on_air(server, station, on_air=False)
