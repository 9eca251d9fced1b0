"""Pieces cut from byte ranges (issue 39 §4), sample by sample, in Chromium.

For each format the player cuts from a range (web/js/playback/range-start.js
with slice-mp3.js, slice-flac.js, slice-opus.js and slice-m4a.js), ffmpeg
makes a 30 s file of pink noise (no two stretches alike, so a piece off by
even one sample can't match). A static server answers HTTP Range requests
as Wavelength's does; the page asks range-start.js for pieces around
several positions, decodes each with decodeAudioData, decodes the whole file
too, and compares the piece with the whole decode where the piece says it
is, at the position and near its end (quick-decode.js's pieceLag: 0 when
they agree). An MP4 is tried with its index at the end (ffmpeg's default)
and at the start (`-movflags +faststart`), both without perceptual noise
substitution: PNS bands are filled by the decoder's random generator, whose
state depends on every frame decoded before, so a piece's noise differs from
the whole decode's (by design of the codec, and inaudibly) and no
sample-exact comparison can hold there.

test_a_misplaced_piece_is_caught shows that the comparison can fail: a
piece whose stated start is one AAC frame out, or a Vorbis piece 448
samples out (what reading a long block as short gives), is refused.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import WEB

SECONDS = 30
# (file, ffmpeg codec arguments, the format the server names it by)
FILES = [
    ("cbr.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"], "mp3"),
    ("vbr.mp3", ["-c:a", "libmp3lame", "-q:a", "4"], "mp3"),
    ("noise.flac", ["-c:a", "flac", "-sample_fmt", "s16"], "flac"),
    ("noise.opus", ["-c:a", "libopus", "-b:a", "96k"], "opus"),
    ("vorbis.ogg", ["-c:a", "libvorbis", "-q:a", "4"], "ogg"),
    ("opus.ogg", ["-c:a", "libopus", "-b:a", "96k"], "ogg"),
    ("noise.m4a", ["-c:a", "aac", "-b:a", "128k", "-aac_pns", "0"], "m4a"),
    ("faststart.m4a", ["-c:a", "aac", "-b:a", "128k", "-aac_pns", "0", "-movflags", "+faststart"], "m4a"),
]
POSITIONS = [0.2, 7.31, 21.9]


class _RangeHandler(SimpleHTTPRequestHandler):
    """/js/ is the web app's modules, /audio/ the made files (with Range)."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def __init__(self, *args, audio: Path, **kwargs):
        self.audio = audio
        super().__init__(*args, directory=str(WEB), **kwargs)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/":
            body = b"<!doctype html><title>pieces</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if not path.startswith("/audio/"):
            return super().do_GET()
        target = self.audio / Path(path[len("/audio/"):]).name
        if not target.is_file():
            self.send_error(404)
            return
        data = target.read_bytes()
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if match:
            start = int(match[1])
            end = min(len(data) - 1, int(match[2]) if match[2] else len(data) - 1)
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
            data = data[start:end + 1]
        else:
            self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def pieces_server(tmp_path_factory):
    if not shutil.which("ffmpeg"):
        pytest.fail("ffmpeg is needed to make the test files (apt-get install ffmpeg)")
    audio = tmp_path_factory.mktemp("pieces")
    for name, codec, _ in FILES:
        subprocess.run(
            ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"anoisesrc=d={SECONDS}:c=pink:seed=7:a=0.3",
             "-ac", "2", "-ar", "48000" if "opus" in name else "44100", *codec, str(audio / name)],
            check=True, timeout=120,
        )
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_RangeHandler, audio=audio))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


# Decodes the whole file and a piece at each position; for each piece: its
# stated start, how many requests it took, and the lag against the whole
# decode at the position and 2 s on (null: no match at all).
PIECES_JS = """
const [url, format, positions, shift, done] = arguments;
(async () => {
  const { rangePiece } = await import('/js/playback/range-start.js');
  const { pieceLag } = await import('/js/playback/quick-decode.js');
  const ctx = new OfflineAudioContext(2, 44100, 44100);
  const whole = await ctx.decodeAudioData(await (await fetch(url)).arrayBuffer());
  const out = [];
  for (const at of positions) {
    const got = await rangePiece(url, format, whole.duration, at, 4);
    if (!got || got.whole) { out.push({ at, got: got ? 'whole' : null }); continue; }
    const bytes = got.bytes.length;
    const piece = await ctx.decodeAudioData(got.bytes.buffer);
    const start = got.start + shift;
    out.push({
      at, start, bytes, tries: got.timing.tries,
      lag: pieceLag(piece, start, whole, at + 0.05),
      lagLater: pieceLag(piece, start, whole, at + 2),
      pieceSeconds: piece.duration,
    });
  }
  return out;
})().then(done, (e) => done({ error: String(e && e.stack || e) }));
"""


def pieces(driver, base, name, fmt, shift=0.0):
    driver.get(base + "/")
    driver.set_script_timeout(120)
    return driver.execute_async_script(PIECES_JS, f"{base}/audio/{name}", fmt, POSITIONS, shift)


@pytest.mark.parametrize("name,fmt", [(n, f) for n, _, f in FILES])
def test_a_piece_from_a_range_is_the_file_where_it_says(pieces_server, browser, name, fmt):
    got = pieces(browser(), pieces_server, name, fmt)
    assert not (isinstance(got, dict) and got.get("error")), got
    for p in got:
        assert p.get("got", "piece") == "piece" and "lag" in p, f"{name}: no piece from a range at {p['at']} s: {p}"
        assert p["start"] <= p["at"] and p["start"] + p["pieceSeconds"] >= p["at"] + 3, f"{name}: the piece misses the position: {p}"
        assert p["lag"] == 0 and p["lagLater"] == 0, f"{name}: the piece isn't where it says at {p['at']} s: {p}"


@pytest.mark.parametrize("name,fmt,shift", [
    ("noise.m4a", "m4a", 1024 / 44100),  # one AAC frame
    ("vorbis.ogg", "ogg", 448 / 44100),  # a short block's quarter against a long one's
])
def test_a_misplaced_piece_is_caught(pieces_server, browser, name, fmt, shift):
    # A stated start a little out: the comparison must say so.
    got = pieces(browser(), pieces_server, name, fmt, shift=shift)
    assert not (isinstance(got, dict) and got.get("error")), got
    assert all(p["lag"] != 0 for p in got if p.get("at", 0) > 1), got
