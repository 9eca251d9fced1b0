"""Fixtures for Wavelength's browser tests: the real server binary on a free
port with a fresh data folder, a generated library with hostile tags and a
short track, and headless Chromium sessions driven by Selenium.

Run from the repository root: python3 -m pytest -q e2e/browser
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from accounts_api import Account, ApiFailure, auth_request, signup
from helpers import PATIENCE, assert_fits, wait_for

REPO = Path(__file__).resolve().parents[2]
# WAVELENGTH_WEB serves another copy of the web app (e.g. an older one, to
# check that a new test fails without its fix).
WEB = Path(os.environ.get("WAVELENGTH_WEB", REPO / "web")).resolve()
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
LOGS = REPO / "test-artifacts" / "logs"
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

PHONE = (390, 844)
DESKTOP = (1440, 900)

# Titles that would run script if rendered as HTML.
ALERT_TITLE = "<img src=x onerror=alert(1)>"
XSS_TITLE = '"><img src=x onerror="window.__xss=1">'
XSS_ARTIST = "<script>window.__xss=2</script>"
XSS_ALBUM = "<b onmouseover=window.__xss=3>Bold</b>"
SHORT_TITLE = "Short Wave"


def server_binary() -> Path:
    value = os.environ.get("WAVELENGTH_BIN", ".build/debug/wavelength")
    path = Path(value)
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        pytest.exit(f"The server binary {path} is missing: build it first (swift build) or set WAVELENGTH_BIN.", returncode=2)
    return path


# The line `wavelength serve` logs once it listens, with the port it bound.
ON_THE_AIR = re.compile(rb"Wavelength is on the air at http://127\.0\.0\.1:(\d+)")
_server_numbers = itertools.count(1)


class Server:
    """The real `wavelength serve`, started and stopped by the tests."""

    def __init__(
        self, data: Path, port: int | None = None, libraries: list[Path] | None = None, name: str = "server",
        options: list[str] | None = None, analysis: bool = False,
    ):
        self.data = data
        # The audio analysis (ffmpeg's loudness and aubio's tempo over every
        # file) keeps a core busy for a minute after each start; only the
        # servers of the tests that read its results run it.
        self.analysis = analysis
        # Every browser here comes from 127.0.0.1, so the per-address limits
        # on new accounts and guests are lifted unless a test sets its own;
        # bcrypt runs at its lowest cost, as in the Swift tests, since three
        # test workers sign people up at once on two cores.
        self.options = options if options is not None else [
            "--signups-per-hour", "100000", "--guests-per-hour", "100000", "--bcrypt-cost", "4"]
        # None until the first start binds port 0 and says which it got: a
        # port picked free here and bound later (after the library scan)
        # could be taken meanwhile. A restart binds the same port again.
        self.port = port
        self.libraries = libraries or []
        self.name = name
        self.process: subprocess.Popen | None = None
        LOGS.mkdir(parents=True, exist_ok=True)
        self.log_path = LOGS / f"{name}-{os.getpid()}-{next(_server_numbers)}.log"

    @property
    def base(self) -> str:
        assert self.port is not None, "the server has not started"
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> "Server":
        args = [
            str(server_binary()), "serve",
            "--data", str(self.data),
            "--host", "127.0.0.1",
            "--port", str(self.port or 0),
            "--web", str(WEB),
            "--ping-interval", "2",
            *self.options,
            *([] if self.analysis else ["--no-analysis"]),
            # Live sources on a free port of their own: servers run side by side.
            "--source-port", "0",
        ]
        for library in self.libraries:
            args += ["--library", str(library)]
        log = open(self.log_path, "ab")
        logged = log.tell()  # a restart appends to the same log
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
        log.close()
        # A short bounded poll: the server is ready when it has said which
        # port it listens on (this start's line) and /health answers there.
        deadline = time.monotonic() + timeout
        listening = False
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}; see {self.log_path}")
            if not listening:
                with open(self.log_path, "rb") as written:
                    written.seek(logged)
                    found = ON_THE_AIR.search(written.read())
                if not found:
                    time.sleep(0.1)
                    continue
                self.port = int(found.group(1))
                listening = True
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not become ready in {timeout} s; see {self.log_path}")

    def stop(self) -> None:
        if not self.process or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)

    # HTTP helpers (accounts_api.py has the rest: guests, follows, browsers).
    def request(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        """The parsed JSON answer; raises accounts_api.ApiFailure on 4xx/5xx."""
        return auth_request(self, method, path, body, token)

    def get(self, path: str, token: str | None = None):
        return self.request("GET", path, token=token)

    def signup(self, handle: str | None = None, display_name: str | None = None) -> Account:
        """A new user with their own station: an Account with person,
        station and token (a bearer access token)."""
        return signup(self, handle, display_name)

    def command(self, station_id: str, token: str, command: dict) -> dict:
        self.counter = getattr(self, "counter", 0) + 1
        return self.request(
            "POST", f"/api/stations/{station_id}/commands",
            {"id": f"test-{os.getpid()}-{time.monotonic_ns()}-{self.counter}", "command": command}, token=token,
        )

    def timeline(self, station_id: str) -> dict:
        return self.get(f"/api/stations/{station_id}/timeline")

    def skip(self, station_id: str, token: str, entry_id: str) -> dict:
        """Skips entry_id and returns the timeline once the cut has taken
        effect: the server commits a skip a short lead ahead (300 ms by
        default), so that every listener changes at the same instant."""
        try:
            self.command(station_id, token, {"op": "skip", "entryID": entry_id})
        except ApiFailure as failure:
            # The entry ended on its own between the caller reading it and
            # the skip (a loaded machine widens that gap): the station is
            # where the skip would have taken it.
            if failure.code != "already_played":
                raise
        deadline = time.monotonic() + PATIENCE
        while True:
            timeline = self.timeline(station_id)
            current = timeline.get("current")
            if current and current["id"] != entry_id:
                return timeline
            if time.monotonic() > deadline:
                raise AssertionError(f"the skip of {entry_id} never took effect: {timeline}")
            time.sleep(0.02)

    def tracks(self) -> list[dict]:
        return self.get("/api/library/tracks?limit=500")

    def demo_station(self) -> tuple[str, str, str]:
        """The demo station from before accounts: (id, frequency, owner key),
        from <data>/owner-keys.txt. Nobody owns it until someone claims it."""
        station_id, frequency, key = (self.data / "owner-keys.txt").read_text().split()[:3]
        return station_id, frequency, key


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory):
    """One server with the generated demo library, shared by most tests;
    each test signs up its own people (each with their own station)."""
    server = Server(tmp_path_factory.mktemp("demo-data"), name="demo").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def measured_server(tmp_path_factory):
    """A server with the demo library that measures every song's loudness
    and tempo, for the tests that read what was measured."""
    server = Server(tmp_path_factory.mktemp("measured-data"), name="measured", analysis=True).start()
    # Every song is measured before a test starts: a gain that arrives while
    # a browser plays would make its level and the server's differ.
    deadline = time.monotonic() + 300
    while True:
        progress = server.get("/api/library/analysis")
        if progress["total"] > 0 and progress["analyzed"] == progress["total"]:
            break
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"the audio analysis never finished: {progress}")
        time.sleep(0.2)
    yield server
    server.stop()


def make_tone(path: Path, seconds: float, hz: int, title: str, artist: str, album: str, track: int) -> None:
    subprocess.run(
        [
            "ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", f"sine=frequency={hz}:sample_rate=44100:duration={seconds}",
            "-ac", "2", "-c:a", "libmp3lame", "-b:a", "96k",
            "-metadata", f"title={title}",
            "-metadata", f"artist={artist}",
            "-metadata", f"album_artist={artist}",
            "-metadata", f"album={album}",
            "-metadata", f"track={track}",
            "-metadata", "genre=Test",
            str(path),
        ],
        check=True,
    )


@pytest.fixture(scope="session")
def tone_library(tmp_path_factory) -> Path:
    """Five tagged sine tones: a 12 s one (so a track ends soon, with room
    for two loaded browsers to switch to it before it does) and two
    with titles, artists and albums that are HTML."""
    if not shutil.which("ffmpeg"):
        pytest.exit("ffmpeg is needed to generate the test library", returncode=2)
    root = tmp_path_factory.mktemp("tone-library")
    make_tone(root / "01-short.mp3", 12, 440, SHORT_TITLE, "Test Signal", "Calibration", 1)
    make_tone(root / "02-alert.mp3", 30, 330, ALERT_TITLE, XSS_ARTIST, XSS_ALBUM, 2)
    make_tone(root / "03-xss.mp3", 25, 550, XSS_TITLE, XSS_ARTIST, XSS_ALBUM, 3)
    make_tone(root / "04-long.mp3", 40, 262, "Long Tone", "Test Signal", "Calibration", 4)
    make_tone(root / "05-mid.mp3", 20, 392, "Middle Tone", "Test Signal", "Calibration", 5)
    return root


@pytest.fixture(scope="session")
def tone_server(tmp_path_factory, tone_library):
    server = Server(tmp_path_factory.mktemp("tone-data"), libraries=[tone_library], name="tones").start()
    yield server
    server.stop()


def new_driver(size=PHONE, mobile: bool | None = None, extra_args: list[str] | tuple[str, ...] = ()) -> webdriver.Chrome:
    """Headless Chromium at `size`; `extra_args` are more command-line
    switches (e.g. a fake microphone playing a file: fake_microphone())."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--autoplay-policy=no-user-gesture-required",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--mute-audio",
        "--no-first-run",
        "--hide-scrollbars",
        f"--window-size={size[0]},{size[1]}",
        *extra_args,
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The system chromedriver, given explicitly: Selenium Manager never runs.
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    set_viewport(driver, size, mobile)
    return driver


def fake_microphone(wav: Path | None = None, deny: bool = False) -> list[str]:
    """Chromium switches for a microphone that plays `wav` (a 16-bit PCM
    WAV, looped) and is granted without a prompt; deny=True refuses it
    instead, as a person pressing "Block" would."""
    args = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream" + ("=deny" if deny else "")]
    if wav is not None:
        args.append(f"--use-file-for-fake-audio-capture={wav}")
    return args


def set_viewport(driver, size, mobile: bool | None = None) -> None:
    if mobile is None:
        mobile = size[0] < 700
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        # The screen is the device's too, so a test can tell the device's width
        # from a layout viewport that grew to fit content that is too wide.
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile,
         "screenWidth": size[0], "screenHeight": size[1]},
    )


# The widths every screen is checked at, phone to desktop.
WIDTHS = [360, 390, 768, 1024, 1440]


def at_every_width(d, shot, screen: str, selectors: list[str], restore=PHONE, reveal: str | None = None,
                   block: str = "start") -> None:
    """The screen fits with no sideways scroll at every width in WIDTHS (a
    screenshot of each); `reveal` is scrolled into view first."""
    for width in WIDTHS:
        set_viewport(d, (width, 900))
        wait_for(d, lambda d: d.execute_script("return Math.min(innerWidth, screen.width)") == width)
        if reveal:
            d.execute_script(f"document.querySelector({reveal!r}).scrollIntoView({{block: {block!r}}})")
        assert_fits(d, f"{screen} at {width}px", selectors)
        shot(d, f"{screen}-{width}")
    set_viewport(d, restore)


@pytest.fixture
def browser(request):
    """A factory of headless Chromium sessions (separate browser contexts),
    all closed after the test. Console errors are written to the logs."""
    drivers: list[webdriver.Chrome] = []

    def make(size=PHONE, mobile: bool | None = None, extra_args: list[str] | tuple[str, ...] = ()) -> webdriver.Chrome:
        driver = new_driver(size, mobile, extra_args)
        drivers.append(driver)
        return driver

    yield make
    LOGS.mkdir(parents=True, exist_ok=True)
    for index, driver in enumerate(drivers):
        try:
            entries = driver.get_log("browser")
            if entries:
                with open(LOGS / f"{request.node.name}-browser{index}.log", "w") as f:
                    for entry in entries:
                        f.write(f"{entry['level']} {entry['message']}\n")
        except Exception:
            pass
        driver.quit()


@pytest.fixture
def shot(request):
    """shot(driver, "screen-name") saves a PNG of the viewport."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = request.node.originalname
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None:
        name += f"-{callspec.id}"
    test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", name)

    def take(driver, name: str) -> Path:
        path = SCREENSHOTS / f"{test_name}--{name}.png"
        driver.save_screenshot(str(path))
        return path

    return take
