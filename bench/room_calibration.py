#!/usr/bin/env python3
"""Room calibration measured in a PulseAudio room (e2e/browser/pulse_room.py):
a phone (Chromium A, the room's left channel, listening through the room's
microphone) calibrates a "Bluetooth speaker" (Chromium B, reaching the room
through module-loopback with a hidden delay). For each round the hidden delay
is set anew (0 to 300 ms over the rounds), B's correction is cleared, the
room's own spread is recorded (cross-correlating its two channels: the truth
the measurement is checked against), B is calibrated through the web app,
and the room is recorded again. Prints each round, the error's p50/p95/max,
refusals, and with --listen the spread over that many seconds after a 150 ms
calibration.

    python3 bench/room_calibration.py [--binary .build/release/wavelength] [--rounds 20]
        [--noise pink|voice] [--listen 60]

--noise plays room noise into the room all along, its RMS 20 dB below the
chirp's (pink noise from ffmpeg, or a voice reading from espeak-ng).
Needs pulseaudio, pulseaudio-utils, ffmpeg, espeak-ng, numpy, selenium, chromium.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "e2e", "browser"))
sys.path.insert(0, HERE)

from audio_spread import click_track  # noqa: E402
from pulse_room import RATE, PulseRoom, chromium, spread  # noqa: E402
import numpy as np  # noqa: E402

CHIRP_RMS_DB = -23.0  # the chirp: 0.1 peak (−20 dBFS), a sine's RMS 3 dB under
VOICE = ("The weather on the mountain will turn after noon, so pack the red jacket and the spare batteries. "
         "Did anyone see where I left the keys to the van? We meet at the lodge at seven.")


def noise_file(kind, folder, seconds=900):
    """Room noise at the chirp's RMS less 20 dB, as a WAV paplay can loop through."""
    path = os.path.join(folder, f"{kind}.wav")
    target = 10 ** ((CHIRP_RMS_DB - 20) / 20)
    if kind == "pink":
        source = ["-f", "lavfi", "-i", f"anoisesrc=color=pink:amplitude=1:sample_rate=48000:duration={seconds}"]
    else:
        speech = os.path.join(folder, "speech.wav")
        subprocess.run(["espeak-ng", "-w", speech, VOICE], check=True, capture_output=True)
        source = ["-stream_loop", "-1", "-i", speech, "-t", str(seconds)]
    raw = os.path.join(folder, f"{kind}-raw.wav")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *source, "-ac", "1", "-ar", "48000", raw], check=True)
    level = subprocess.run(["ffmpeg", "-hide_banner", "-i", raw, "-af", "volumedetect", "-f", "null", "-"],
                           capture_output=True, text=True).stderr
    mean = float(next(line.split("mean_volume:")[1].split("dB")[0] for line in level.splitlines() if "mean_volume" in line))
    gain = (CHIRP_RMS_DB - 20) - mean
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", raw, "-af", f"volume={gain}dB",
                    "-ac", "2", path], check=True)
    return path, target


def wait(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    raise SystemExit(f"timed out: {what}")


def phase(driver):
    return driver.execute_script("const c = document.querySelector('.calibrate'); return c && c.dataset.phase")


def status(driver):
    return driver.execute_script("const s = document.querySelector('.calibrate-status'); return s && s.textContent")


def playing(driver):
    return driver.execute_script("const r = window.__wavelength && window.__wavelength.report(); return r && r.state === 'playing'")


def record(room, folder, name, seconds, around_ms=0):
    raw = os.path.join(folder, f"{name}.raw")
    recorder = room.record(raw)
    time.sleep(seconds)
    recorder.terminate()
    recorder.wait(timeout=10)
    return spread(raw, around_ms=around_ms, max_lag_ms=60)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


CHIRP = dict(f0=1000.0, f1=8000.0, seconds=0.12, fade=0.01)
SLOT_S = (3 * 0.25 + 0.12 + 1.0 + 0.3)  # calibration.js: SLOT_MS, the meter's slot, then the device's


def chirp(rate=RATE):
    n = int(round(CHIRP["seconds"] * rate))
    t = np.arange(n) / rate
    fade = int(round(CHIRP["fade"] * rate))
    env = np.ones(n)
    ramp = 0.5 - 0.5 * np.cos(np.pi * np.arange(fade) / fade)
    env[:fade] = ramp
    env[n - fade:] = ramp[::-1]
    sweep = (CHIRP["f1"] - CHIRP["f0"]) / CHIRP["seconds"]
    return env * np.sin(2 * np.pi * (CHIRP["f0"] * t + 0.5 * sweep * t * t))


def arrivals(channel, template, count=4):
    """The first `count` chirp starts in one channel of the room (samples),
    by a matched filter: the strongest peak, then the next beyond 100 ms."""
    size = 1 << (len(channel) + len(template)).bit_length()
    corr = np.fft.irfft(np.fft.rfft(channel, size) * np.conj(np.fft.rfft(template, size)), size)[:len(channel)]
    corr = np.abs(corr)
    found = []
    work = corr.copy()
    for _ in range(count):
        k = int(np.argmax(work))
        if work[k] <= 0:
            break
        a, b, c = corr[k - 1], corr[k], corr[k + 1]
        found.append(k + (0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0))
        work[max(0, k - RATE // 10):k + RATE // 10] = 0
    return sorted(found)


def room_figures(raw):
    """The far speaker's delay behind the near one at each of the four
    chirps of a calibration, from the room's own two channels: the phone's
    chirps arrive on the left only, the speaker's on the right only, one
    slot later (ms). None when a channel held fewer than four chirps. In a
    room that holds still the four agree to a few hundredths of a ms."""
    pcm = np.fromfile(raw, dtype="<i2").astype(np.float64).reshape(-1, 2)
    template = chirp()
    left, right = arrivals(pcm[:, 0], template), arrivals(pcm[:, 1], template)
    if len(left) < 4 or len(right) < 4:
        return None
    return [(r - l) / RATE * 1000 - SLOT_S * 1000 for l, r in zip(left, right)]


def room_truth(raw):
    """The far speaker's delay behind the near one at the calibration (the
    median of `room_figures`), or None."""
    figures = room_figures(raw)
    return None if figures is None else float(np.median(figures))


def calibrate(phone, speaker, room=None, folder=None):
    """One calibration through the web app: → (measured ms or None, the
    speaker's words, the room's own figure meanwhile when `room` is given)."""
    recorder = None
    if room is not None:
        raw = os.path.join(folder, "during.raw")
        recorder = room.record(raw)
    for d in (phone, speaker):
        d.execute_script("document.querySelector('.calibrate').open = true")
    phone.execute_script("document.querySelector('.calibrate-start').click()")
    wait(lambda: speaker.execute_script("return !document.querySelector('.calibrate-call').hidden"), 30, "the call")
    speaker.execute_script("document.querySelector('.calibrate-join').click()")
    # Each side leaves the last calibration's "done" before this one's.
    wait(lambda: phase(speaker) in ("waiting", "playing"), 30, f"the speaker joins: {status(speaker)}")
    wait(lambda: phase(phone) == "done", 60, f"the phone: {status(phone)}")
    wait(lambda: phase(speaker) in ("done", "idle"), 30, f"the speaker: {status(speaker)}")
    truth = None
    if recorder is not None:
        recorder.terminate()
        recorder.wait(timeout=10)
        truth = room_truth(raw)
    delays = json.loads(speaker.execute_script("return localStorage.getItem('wavelength.outputDelays') || '{}'"))
    return (next(iter(delays.values()))["delayMs"] if delays else None), status(speaker), truth


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    release = os.path.join(ROOT, ".build-release/release/wavelength")
    parser.add_argument("--binary", default=release if os.path.exists(release) else os.path.join(ROOT, ".build/debug/wavelength"))
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--noise", choices=["pink", "voice"])
    parser.add_argument("--listen", type=float, default=0, help="seconds of room to record after a 150 ms calibration")
    parser.add_argument("--steady", action="store_true",
                        help="let module-loopback hold its delay (its rate control), instead of a fixed queue that drifts")
    parser.add_argument("--again", action="store_true",
                        help="calibrate each round a second time: what the chirps still show once corrected")
    args = parser.parse_args()
    os.environ["WAVELENGTH_BIN"] = args.binary
    from conftest import Server  # noqa: E402  (the browser tests' server runner)
    from accounts_api import signup  # noqa: E402

    work = tempfile.mkdtemp(prefix="wavelength-room-")
    room = server = None
    drivers = []
    try:
        library = os.path.join(work, "library")
        os.makedirs(library)
        click_track(os.path.join(library, "click.mp3"), seconds=600)
        noise = noise_file(args.noise, work)[0] if args.noise else None
        from pathlib import Path
        server = Server(Path(work) / "data", libraries=[Path(library)], name="room-bench").start()
        room = PulseRoom(os.path.join(work, "pulse"), 150, noise=noise, steady=args.steady)
        owner = signup(server)
        url = f"{server.base}/#/station/{owner.station['id']}"
        phone = chromium(room, "near", source="roommic")
        speaker = chromium(room, "far")
        drivers = [phone, speaker]
        errors, refusals, afters = [], [], []
        print(f"== room calibration, {args.rounds} rounds, hidden delays 0–300 ms, noise: {args.noise or 'none'}")
        print("round  injected  room before  room at it  measured   error   after (the room's lag once corrected)")
        for r in range(args.rounds):
            injected = round(r * 300 / max(1, args.rounds - 1))
            room.set_delay(injected)
            speaker.get(url)
            speaker.execute_script("localStorage.removeItem('wavelength.outputDelays')")
            speaker.refresh()
            if r == 0:
                phone.get(url)
            for d in drivers:
                wait(lambda: playing(d), 60, "playing")
                wait(lambda: d.execute_script("return document.querySelector('.calibrate') && document.querySelector('.station[data-state=ready], [data-state=ready]')"), 30, "ready")
            time.sleep(2)  # past the player's lock-in, before the truth is taken
            before = record(room, work, f"before-{r}", 3, around_ms=injected)
            truth = statistics.median(before) if before else float("nan")
            measured, words, during = calibrate(phone, speaker, room, work)
            time.sleep(1.5)
            after = record(room, work, f"after-{r}", 3)
            if measured is None:
                refusals.append(words)
                print(f"{r:5d}  {injected:6d} ms  {truth:8.2f} ms   refused: {words}")
                continue
            # The room's own figure at the calibration (its chirps on its two
            # channels); module-loopback's delay drifts a little over a round.
            error = measured - during if during is not None else float("nan")
            errors.append(error)
            if after:
                afters.append(statistics.median(after))
            line = (f"{r:5d}  {injected:6d} ms  {truth:8.2f} ms  {during if during is not None else float('nan'):8.2f} ms  "
                    f"{measured:7.2f} ms  {error:+6.2f}  {statistics.median(after) if after else float('nan'):+6.2f} ms")
            if args.again:
                again, said, _ = calibrate(phone, speaker)
                line += (f"   again: {again - measured:+6.2f} ms" if again is not None else "   again: refused") + (f" ({said})" if os.environ.get("BENCH_VERBOSE") else "")
            print(line)
        absolute = [abs(e) for e in errors if e == e]
        residual = [abs(x) for x in afters]
        print(f"error |measured − the room's own at the calibration|: p50 {pct(absolute, .5):.2f} ms, p95 {pct(absolute, .95):.2f} ms, max {max(absolute, default=float('nan')):.2f} ms over {len(errors)}; refused {len(refusals)}")
        print(f"the room's lag once corrected: p50 {pct(residual, .5):.2f} ms, p95 {pct(residual, .95):.2f} ms, max {max(residual, default=float('nan')):.2f} ms")
        if args.listen:
            room.set_delay(150)
            speaker.execute_script("localStorage.removeItem('wavelength.outputDelays')")
            speaker.refresh()
            wait(lambda: playing(speaker), 60, "playing")
            time.sleep(2)
            before = record(room, work, "listen-before", 5, around_ms=150)
            measured, words, during = calibrate(phone, speaker, room, work)
            time.sleep(1.5)
            lags = record(room, work, "listen", args.listen)
            spread_abs = [abs(x) for x in lags]
            # The room's own delay again, by its chirps: how far the emulated
            # speaker itself moved while the spread was recorded.
            _, _, later = calibrate(phone, speaker, room, work)
            # `later` is heard with the correction on: add it back.
            moved = later + measured - during if None not in (later, measured, during) else float("nan")
            print(f"150 ms hidden: before p50 {statistics.median(before):.2f} ms; the room at the calibration {during}; measured {measured}; "
                  f"after, {len(lags)} 1 s windows over {args.listen:.0f} s: |spread| p50 {pct(spread_abs, .5):.2f} ms, "
                  f"p95 {pct(spread_abs, .95):.2f} ms, max {max(spread_abs, default=float('nan')):.2f} ms; "
                  f"first 5 s {statistics.median(lags[:5]):+.2f} ms, last 5 s {statistics.median(lags[-5:]):+.2f} ms; "
                  f"the room's own delay moved {moved:+.2f} ms meanwhile")
    finally:
        for d in drivers:
            try:
                d.quit()
            except Exception:
                pass
        if server:
            server.stop()
        if room:
            room.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
