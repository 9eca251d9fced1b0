#!/usr/bin/env python3
"""The spread of the real audio output between two Chromium listeners, not
only what the pages report (the issue's stretch measurement).

A private PulseAudio server gets one stereo null sink, "mix", and two remap
sinks that write straight into its left and right channels (no loopback
buffering, so both paths have the same latency). Chromium A plays into the
left channel, Chromium B into the right, both on the same station, whose
library is a single generated click track (short 2 kHz bursts at irregular
intervals, so no two windows look alike). The mix's monitor is recorded;
cross-correlating its two channels in 1 s windows gives how far apart the
two browsers' sound really is, and the pages' own reports (positionMs by
the wall clock) are read at the same time for comparison.

Needs pulseaudio and pulseaudio-utils (Debian), numpy, selenium, chromium.

    python3 bench/audio_spread.py [--binary .build/release/wavelength] [--seconds 20] [--codec mp3|m4a|ogg|opus|flac]
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RATE = 48000


# --codec: the click track's file name and ffmpeg's codec arguments.
CODECS = {
    "mp3": ("click.mp3", ["-c:a", "libmp3lame", "-b:a", "192k"]),
    "m4a": ("click.m4a", ["-c:a", "aac", "-b:a", "192k"]),
    "ogg": ("click.ogg", ["-c:a", "libvorbis", "-q:a", "6"]),
    "opus": ("click.opus", ["-c:a", "libopus", "-b:a", "128k", "-ar", "48000"]),
    "flac": ("click.flac", ["-c:a", "flac"]),
}


def click_track(path, codec=CODECS["mp3"][1], seconds=90, rate=44100, seed=5):
    """Irregular 2 ms, 2 kHz bursts (every 150–450 ms), encoded with `codec`."""
    rng = np.random.default_rng(seed)
    signal_ = np.zeros(int(seconds * rate), dtype=np.float32)
    t = 0.2
    burst = np.sin(2 * np.pi * 2000 * np.arange(int(0.002 * rate)) / rate) * np.hanning(int(0.002 * rate))
    while t < seconds - 0.5:
        i = int(t * rate)
        signal_[i:i + len(burst)] += burst * 0.8
        t += rng.uniform(0.15, 0.45)
    pcm = (signal_ * 32767).astype("<i2").tobytes()
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "s16le", "-ar", str(rate), "-ac", "1", "-i", "-",
         "-ac", "2", *codec,
         "-metadata", "title=Click Track", "-metadata", "artist=Wavelength Bench", "-metadata", "album=Calibration",
         path], input=pcm, check=True)


class Pulse:
    def __init__(self, root):
        self.root = root
        self.run = os.path.join(root, "run")
        os.makedirs(self.run, exist_ok=True)
        self.socket = os.path.join(self.run, "native")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.run, PULSE_RUNTIME_PATH=self.run, HOME=root,
                        PULSE_SERVER=f"unix:{self.socket}")
        self.proc = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
             "-L", f"module-native-protocol-unix socket={self.socket} auth-anonymous=1",
             "-L", f"module-null-sink sink_name=mix channels=2 rate={RATE}",
             "-L", "module-remap-sink sink_name=wlA master=mix channels=1 master_channel_map=front-left channel_map=mono remix=no",
             "-L", "module-remap-sink sink_name=wlB master=mix channels=1 master_channel_map=front-right channel_map=mono remix=no"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while subprocess.run(["pactl", "list", "short", "sinks"], env=self.env, capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise SystemExit("pulseaudio did not start")
            time.sleep(0.1)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def browser(pulse, sink):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", "--window-size=390,844"):
        options.add_argument(arg)
    env = dict(pulse.env, PULSE_SINK=sink)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver", env=env), options=options)


def lag_ms(left, right, max_lag):
    """Lag of right behind left (ms), by cross-correlation, or None if flat."""
    if np.abs(left).max() < 500 or np.abs(right).max() < 500:
        return None
    n = len(left) + len(right)
    size = 1 << (n - 1).bit_length()
    corr = np.fft.irfft(np.fft.rfft(right, size) * np.conj(np.fft.rfft(left, size)), size)
    corr = np.concatenate([corr[-max_lag:], corr[:max_lag + 1]])
    k = int(np.argmax(corr))
    # Parabolic interpolation around the peak for sub-sample precision.
    if 0 < k < len(corr) - 1:
        a, b, c = corr[k - 1], corr[k], corr[k + 1]
        k = k + 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else k
    return (k - max_lag) / RATE * 1000


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    release = os.path.join(ROOT, ".build/release/wavelength")
    parser.add_argument("--binary", default=release if os.path.exists(release) else os.path.join(ROOT, ".build/debug/wavelength"))
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--codec", choices=sorted(CODECS), default="mp3",
                        help="the click track's format (each is cut from a byte range when a listener tunes in)")
    args = parser.parse_args()
    for tool in ("pulseaudio", "pactl", "parec", "ffmpeg"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is needed (apt-get install pulseaudio pulseaudio-utils ffmpeg)")

    work = tempfile.mkdtemp(prefix="wavelength-audiospread-")
    pulse = server = recorder = None
    drivers = []
    try:
        library = os.path.join(work, "library")
        os.makedirs(library)
        name, codec = CODECS[args.codec]
        click_track(os.path.join(library, name), codec)
        sys.path.insert(0, HERE)
        from browser_listeners import REPORT_JS, playback_error, wait
        from harness import Server, create_station

        pulse = Pulse(os.path.join(work, "pulse"))
        server = Server(args.binary, libraries=[library])
        station = create_station(server.url, "Audio Spread")
        for sink in ("wlA", "wlB"):
            d = browser(pulse, sink)
            drivers.append(d)
            d.get(f"{server.url}/#/station/{station['id']}")
        for d in drivers:
            if not wait(lambda: (d.execute_script(REPORT_JS) or {}).get("positionMs") is not None, 30):
                raise SystemExit("a browser never played")
        time.sleep(3)  # past the lock-in
        raw = os.path.join(work, "mix.raw")
        recorder = subprocess.Popen(
            ["parec", "-d", "mix.monitor", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=2",
             "--latency-msec=20", raw], env=pulse.env)
        reported = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            ra, rb = (d.execute_script(REPORT_JS) for d in drivers)
            if ra and rb and ra.get("positionMs") is not None and rb.get("positionMs") is not None \
                    and ra["entryID"] == rb["entryID"]:
                # B minus A: how far B's reported position is behind A's.
                reported.append(playback_error(ra) - playback_error(rb))
            time.sleep(0.1)
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=5)
        recorder = None
        pcm = np.fromfile(raw, dtype="<i2").astype(np.float64).reshape(-1, 2)
        left, right = pcm[:, 0], pcm[:, 1]
        window, max_lag = RATE, int(0.08 * RATE)
        lags = []
        for start in range(0, len(pcm) - window, window):
            lag = lag_ms(left[start:start + window], right[start:start + window], max_lag)
            if lag is not None:
                lags.append(lag)
        spread = [abs(x) for x in lags]
        print(f"\n== real audio output, 2 Chromium listeners through PulseAudio ({len(pcm) / RATE:.1f} s recorded, {args.codec})")
        print(f"  output lag B behind A, per 1 s window (ms): p50 {pct(lags, .5):6.2f}  min {min(lags):6.2f}  max {max(lags):6.2f}  (n={len(lags)})")
        print(f"  |output spread| (ms):                       p50 {pct(spread, .5):6.2f}  p95 {pct(spread, .95):6.2f}  p99 {pct(spread, .99):6.2f}")
        print(f"  the pages' own reports, B behind A (ms):    p50 {pct(reported, .5):6.2f}  p95 |x| {pct([abs(x) for x in reported], .95):6.2f}  (n={len(reported)})")
        print("  (the difference between the two rows is what the reports don't see: output-latency figures"
              " and PulseAudio's own scheduling)")
        if os.environ.get("BENCH_VERBOSE"):
            print("  lags by window (ms):", " ".join("%.1f" % x for x in lags))
            for name, d in zip("AB", drivers):
                det = d.execute_script(REPORT_JS)["details"]
                print(f"  {name}: output latency {det['outputLatencyMs']} ms, base {det['baseLatencyMs']} ms, "
                      f"render lead {det['renderLeadMs']:.1f} ms, rate {det['rate']}, resyncs {det['resyncs']}")
    finally:
        if recorder:
            recorder.kill()
        for d in drivers:
            try:
                d.quit()
            except Exception:
                pass
        if server:
            server.stop()
        if pulse:
            pulse.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
