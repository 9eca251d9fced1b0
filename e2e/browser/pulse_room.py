"""A room built from PulseAudio, for room calibration (issue 42): a private
PulseAudio server with a stereo null sink "mix" (the room), a sink "near"
that writes straight into its left channel (a phone's own speaker), a sink
"far" whose sound reaches the right channel through module-loopback with a
fixed extra latency (a Bluetooth speaker), and "roommic", the room mixed
down to mono: the meter's microphone. Shared by the browser test and
bench/room_calibration.py.

Needs pulseaudio and pulseaudio-utils (Debian), numpy, selenium, chromium.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time

import numpy as np

RATE = 48000


def in_front_of_the_load() -> None:
    """Run before exec in the browsers that stand for the room's devices:
    niced up, ahead of the suite's other load (three browser workers, their
    servers and Chromiums on two cores). A real device's sound doesn't wait
    for another program's CPU; PulseAudio, the room's air and wiring, runs
    its sinks' threads realtime already (RR, as root). Without the
    privilege (not root) the devices run as before."""
    try:
        os.nice(-10)
    except OSError:
        pass


class PulseRoom:
    def __init__(self, root: str, delay_ms: int = 150, noise: str | None = None, steady: bool = False):
        # steady: module-loopback's rate control holds the delay at its
        # target; without it the loopback's queue runs as it started, and
        # drifts by a few ms a minute.
        self.steady = steady
        self.root = root
        os.makedirs(root, exist_ok=True)
        # The runtime folder holds the server's socket, whose path must fit
        # in 108 bytes: a test's own folder under the suite's TMPDIR is longer.
        self.run = tempfile.mkdtemp(prefix="wlpulse-", dir="/tmp")
        self.socket = os.path.join(self.run, "native")
        self.log = os.path.join(root, "pulseaudio.log")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.run, PULSE_RUNTIME_PATH=self.run, HOME=root,
                        PULSE_SERVER=f"unix:{self.socket}")
        self.proc = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
             "--disable-shm=yes",
             "-L", f"module-native-protocol-unix socket={self.socket} auth-anonymous=1",
             "-L", f"module-null-sink sink_name=mix channels=2 rate={RATE}",
             "-L", "module-remap-sink sink_name=near master=mix channels=1 master_channel_map=front-left channel_map=mono remix=no",
             "-L", "module-remap-sink sink_name=farout master=mix channels=1 master_channel_map=front-right channel_map=mono remix=no",
             "-L", f"module-null-sink sink_name=far channels=1 rate={RATE}",
             "-L", "module-remap-source source_name=roommic master=mix.monitor channels=1 channel_map=mono"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"))
        deadline = time.monotonic() + 15
        while self.pactl("list", "short", "sinks").returncode != 0:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                with open(self.log, errors="replace") as said:
                    raise RuntimeError(f"pulseaudio did not start: {said.read()[-2000:]}")
            time.sleep(0.1)
        self.loopback = None
        self.set_delay(delay_ms)
        self.noise = None
        if noise:
            # Room noise into the room itself, both channels (paplay of a file).
            self.noise = subprocess.Popen(["paplay", "--device=mix", noise], env=self.env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def pactl(self, *args) -> subprocess.CompletedProcess:
        return subprocess.run(["pactl", *args], env=self.env, capture_output=True, text=True)

    def set_delay(self, delay_ms: int) -> None:
        """The far speaker's hidden delay: its loopback is made anew."""
        if self.loopback is not None:
            self.pactl("unload-module", self.loopback)
        loaded = self.pactl("load-module", "module-loopback", "source=far.monitor", "sink=farout",
                            f"latency_msec={max(1, int(delay_ms))}", *([] if self.steady else ["adjust_time=0"]),
                            "source_dont_move=true", "sink_dont_move=true")
        if loaded.returncode != 0:
            raise RuntimeError(f"module-loopback: {loaded.stderr}")
        self.loopback = loaded.stdout.strip()

    def record(self, path: str) -> subprocess.Popen:
        """The room's two channels (near left, far right), raw s16le."""
        return subprocess.Popen(["parec", "-d", "mix.monitor", "--raw", "--format=s16le", f"--rate={RATE}",
                                 "--channels=2", "--latency-msec=20", path], env=self.env)

    def stop(self) -> None:
        if self.noise:
            self.noise.kill()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.run, ignore_errors=True)


def chromium(room: PulseRoom, sink: str, source: str | None = None, size=(390, 844)):
    """Headless Chromium playing into `sink` (not muted), with `source` as
    its microphone, granted without a prompt."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", "--use-fake-ui-for-media-stream",
                f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    env = dict(room.env, PULSE_SINK=sink)
    if source:
        env["PULSE_SOURCE"] = source
    return webdriver.Chrome(
        service=Service(executable_path="/usr/bin/chromedriver", env=env, popen_kw={"preexec_fn": in_front_of_the_load}),
        options=options)


def lag_ms(left, right, max_lag: int, center: int = 0) -> float | None:
    """Lag of right behind left (ms), by cross-correlation, looked for within
    `max_lag` samples of `center`; None when either is flat."""
    if np.abs(left).max() < 300 or np.abs(right).max() < 300:
        return None
    n = len(left) + len(right)
    size = 1 << (n - 1).bit_length()
    corr = np.fft.irfft(np.fft.rfft(right, size) * np.conj(np.fft.rfft(left, size)), size)
    lags = np.arange(center - max_lag, center + max_lag + 1)
    corr = corr[lags % size]
    k = int(np.argmax(corr))
    if 0 < k < len(corr) - 1:
        a, b, c = corr[k - 1], corr[k], corr[k + 1]
        if (a - 2 * b + c) != 0:
            k = k + 0.5 * (a - c) / (a - 2 * b + c)
    return (k - max_lag + center) / RATE * 1000


def spread(raw_path: str, around_ms: float = 0, max_lag_ms: float = 100) -> list[float]:
    """The far speaker's lag behind the near one in each 1 s window (ms),
    looked for within `max_lag_ms` of `around_ms`: the click track's clicks
    come 150–450 ms apart, so a wider search could match another click."""
    pcm = np.fromfile(raw_path, dtype="<i2").astype(np.float64).reshape(-1, 2)
    window, max_lag, center = RATE, int(max_lag_ms / 1000 * RATE), int(around_ms / 1000 * RATE)
    lags = []
    for start in range(0, len(pcm) - window, window):
        lag = lag_ms(pcm[start:start + window, 0], pcm[start:start + window, 1], max_lag, center)
        if lag is not None:
            lags.append(lag)
    return lags
