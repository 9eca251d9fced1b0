"""Music copied into the library folder while the server runs is found by
the library's search without a restart: the server watches the folder
(inotify) and rescans what changed. Waits are for the server's log line
and for the page, never a fixed sleep."""

from __future__ import annotations

import shutil

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE, Server, make_tone
from helpers import find, wait_for

NEW_TITLE = "Arrived While Playing"


def rescanned(server: Server) -> bool:
    return "Library rescanned: 1 added" in server.log_path.read_text(errors="replace")


def search(d, text: str) -> None:
    box = find(d, ".library .input-search")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    box.send_keys(text)


def titles_found(d) -> list[str]:
    return [row.text for row in d.find_elements(By.CSS_SELECTOR, ".library .track-row")]


def test_a_song_copied_into_the_library_is_found_without_a_restart(tmp_path, tone_library, browser, shot):
    library = tmp_path / "library"
    library.mkdir()
    shutil.copy(tone_library / "04-long.mp3", library / "04-long.mp3")
    server = Server(tmp_path / "data", libraries=[library], name="watch").start()
    try:
        d = browser(PHONE)
        d.get(f"{server.base}/#/library")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".library .seg[data-tab='search']"))
        find(d, ".library .seg[data-tab='search']").click()
        wait_for(d, lambda d: find(d, ".library .input-search").is_displayed())
        search(d, "Long Tone")
        wait_for(d, lambda d: any("Long Tone" in t for t in titles_found(d)), "the library's one song isn't found")
        search(d, NEW_TITLE)
        wait_for(d, lambda d: any(NEW_TITLE in e.text for e in d.find_elements(By.CSS_SELECTOR, ".library .empty")),
                 "the search for a song that isn't there yet never said so")
        assert not titles_found(d)

        # Written beside the library, then moved in whole, as a copier does.
        staged = tmp_path / "staged.mp3"
        make_tone(staged, 15, 494, NEW_TITLE, "New Arrivals", "Fresh Crate", 1)
        (library / "Fresh Crate").mkdir()
        staged.rename(library / "Fresh Crate" / "01-arrived.mp3")
        wait_for(d, lambda _: rescanned(server), "the server never rescanned the folder")

        search(d, NEW_TITLE)
        wait_for(d, lambda d: any(NEW_TITLE in t for t in titles_found(d)), "the new song isn't found")
        shot(d, "library-found-new-song")
    finally:
        server.stop()
