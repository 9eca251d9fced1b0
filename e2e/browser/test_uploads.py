"""Bringing music: a person chooses several files and drops another on
the library screen, each with its own progress and outcome (stored, not
audio, already on the server); their uploads are theirs until shared. The
control room removes an upload and fixes a track's tags. Every screen fits
at every width with no sideways scroll."""

from __future__ import annotations

import subprocess
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By

from accounts_api import auth_request, log_in_browser, signup, unique_handle
from conftest import PHONE, at_every_width
from helpers import click, find, text_of, wait_for
from test_admin import grant


def make_song(path: Path, title: str, seed: int) -> None:
    """12 s of seeded pink noise under a tone: a recording no other file matches."""
    subprocess.run(
        [
            "ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", f"anoisesrc=d=12:c=pink:seed={seed}:a=0.3",
            "-f", "lavfi", "-i", f"sine=frequency={300 + seed}:duration=12",
            "-filter_complex", "amix=inputs=2", "-ac", "2",
            "-metadata", f"title={title}", "-metadata", "artist=Garage Tapes", "-metadata", "album=Upload Test",
            *(["-c:a", "libmp3lame", "-b:a", "128k"] if path.suffix == ".mp3" else []),
            str(path),
        ],
        check=True,
    )


def search(server, account, q: str) -> list[str]:
    found = auth_request(server, "GET", f"/api/library/search?q={urllib.parse.quote(q)}", token=account.token)
    return [t["title"] for t in found["tracks"]]


def test_several_files_are_uploaded_with_progress_shared_and_removed(demo_server, browser, shot, tmp_path):
    server = demo_server
    ana = signup(server, unique_handle("ana"), "Ana Uploads")
    bo = signup(server, unique_handle("bo"), "Bo Listens")
    admin = signup(server, unique_handle("adm"), "Music Desk")
    grant(server, admin.handle)
    songs = [tmp_path / "01 Basement Hum.mp3", tmp_path / "Porch Static.flac"]
    make_song(songs[0], "Basement Hum", 11)
    make_song(songs[1], "Porch Static", 23)
    fake = tmp_path / "notes.mp3"
    fake.write_text("these are my lyrics, not music\n" * 200)

    d = browser(PHONE)
    log_in_browser(d, server, ana)
    d.get(f"{server.base}/#/library")
    wait_for(d, lambda d: "of your 1 GB used" in (text_of(d, ".uploads-meter-text") or ""), "the uploads card never loaded")
    # Choose three files at once: they go one after another, each with its progress.
    find(d, "#upload-files").send_keys("\n".join(str(p) for p in [*songs, fake]))
    wait_for(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".uploads-row")) == 3, "the chosen files aren't listed")
    wait_for(
        d, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".uploads-row.is-done, .uploads-row.is-failed")) == 3,
        "the uploads never finished", explain=lambda: text_of(d, ".uploads-queue"))
    rows = d.find_elements(By.CSS_SELECTOR, ".uploads-row")
    assert "In your music: Basement Hum" in rows[0].text
    assert "In your music: Porch Static" in rows[1].text
    assert "is-failed" in rows[2].get_attribute("class") and "not audio" in rows[2].text
    for row in rows[:2]:
        bar = row.find_element(By.TAG_NAME, "progress")
        assert bar.get_attribute("value") == bar.get_attribute("max")
    wait_for(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".uploads-item")) == 2, "the uploads aren't in the list")

    # Dropped: a library track's own audio, already on the server, isn't stored twice.
    library_track = auth_request(server, "GET", "/api/library/tracks?limit=1", token=ana.token)[0]
    d.execute_async_script(
        """
        const [url, done] = [arguments[0], arguments[arguments.length - 1]];
        fetch(url).then(r => r.blob()).then(blob => {
          const data = new DataTransfer();
          data.items.add(new File([blob], "dropped copy.mp3", {type: blob.type}));
          const zone = document.querySelector(".uploads-drop");
          zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: data, bubbles: true, cancelable: true}));
          zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
          done();
        });
        """,
        library_track["audioURL"],
    )
    wait_for(d, lambda d: "not stored twice" in (text_of(d, ".uploads-queue") or ""), "the dropped duplicate wasn't recognised")
    assert len(auth_request(server, "GET", "/api/uploads", token=ana.token)["uploads"]) == 2

    # Hers until shared.
    assert search(server, ana, "basement") == ["Basement Hum"]
    assert search(server, bo, "basement") == []
    at_every_width(d, shot, "uploads", [".library-screen", ".uploads-card"], reveal=".uploads-card")
    uploads = auth_request(server, "GET", "/api/uploads", token=ana.token)["uploads"]
    basement = next(u for u in uploads if u["track"]["title"] == "Basement Hum")
    item = f".uploads-item[data-track-id='{basement['track']['id']}']"
    click(d, f"{item} .uploads-share")
    wait_for(d, lambda d: search(server, bo, "basement") == ["Basement Hum"], "sharing didn't reach everyone")

    # The control room: everyone's uploads, one removed with a reason; a tag fixed.
    a = browser(PHONE)
    log_in_browser(a, server, admin)
    a.get(f"{server.base}/#/admin")
    porch = next(u for u in uploads if u["track"]["title"] == "Porch Static")
    row = f".admin-upload-row[data-track-id='{porch['track']['id']}']"
    wait_for(a, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the upload isn't in the control room")
    at_every_width(a, shot, "control-room-uploads", [".admin-screen", "#admin-uploads-heading"], reveal=row)
    find(a, f"{row} .admin-reason").send_keys("Not theirs to share")
    click(a, f"{row} .admin-upload-remove")
    wait_for(a, lambda d: not d.find_elements(By.CSS_SELECTOR, row), "the removed upload stayed")
    assert search(server, ana, "porch") == []

    find(a, "#tagfix-search").send_keys("basement\n")
    result = f".tagfix-result[data-track-id='{basement['track']['id']}']"
    wait_for(a, lambda d: d.find_elements(By.CSS_SELECTOR, result), "the track to fix isn't found")
    click(a, f"{result} .tagfix-edit")
    title = find(a, ".tagfix-form input[name='title']")
    title.clear()
    title.send_keys("Basement Hum (Live)")
    click(a, ".tagfix-save")
    wait_for(a, lambda d: search(server, bo, "live basement") == ["Basement Hum (Live)"], "the fixed title isn't searched")
    at_every_width(a, shot, "control-room-tagfix", [".admin-screen", ".tagfix-form"], reveal=".tagfix-form")
    wait_for(a, lambda d: "tags fixed" in (text_of(a, ".admin-log") or ""), "the fix isn't in the log")
