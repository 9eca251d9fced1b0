"""The web app's pure modules (frequency parsing, the wait message, the
timeline, live sequence handling, the clock estimator with the fixture the
Swift estimator shares, the station screen's and the station settings'
state, the booth's studio figures, the history screen's addresses and
merging, the radio stream's links, "What's this song?"'s countdown,
recording format, "about 1:23 in" and answers, the schedule's weeks, zones,
specs and "every other Tuesday", when reminders go off, and going live's icecast://
address, fields and announcements, and going live from the browser: its
socket messages, frames, level meter and talk-over, and synced lyrics: the
line at a position, the wait to the next, a hold, the cache, and the chat:
its messages, your own while they wait, unread counting, mentions, the
@-autocomplete, the composer, and the emoji reactions' totals and bursts, and
voice clips: the recorder's states, its 30 s cap and polite countdown, the
note, the waveform's bars, the host's clip inbox and the quota, a clip's
entry in now playing, Up Next and history, and the dial's "On this network"
with only http(s) links) unit-tested in
headless Chromium, in Europe/Oslo (a zone that isn't UTC, with clock changes).

The tests are plain ES modules in e2e/js (a tiny runner in assert.js, no
npm). They live outside web/ so that the server never serves them to users:
this file serves them from a test-only static server, with the app's own
modules at /js/ (straight from web/js) and the shared fixtures at
/fixtures/ (Tests/Fixtures). No Wavelength server is needed.

test_js_unit_tests_pass loads the runner page, waits for it to finish and
fails listing every failing JS test. test_js_unit_tests_catch_a_broken_module
shows that the tests can fail: it serves a copy of web/js with one known
mistake (most of them bugs the app had) and expects the named test to fail.
"""

from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import REPO, WEB
from helpers import wait_for

TESTS_JS = REPO / "e2e" / "js"
FIXTURES = REPO / "Tests" / "Fixtures"


class _Handler(SimpleHTTPRequestHandler):
    """Maps /js/ to the web app's modules, /tests/ to e2e/js and
    /fixtures/ to Tests/Fixtures; nothing else is served."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript", ".json": "application/json"}

    def __init__(self, *args, roots: dict[str, Path], **kwargs):
        self.roots = roots
        super().__init__(*args, directory=str(TESTS_JS), **kwargs)

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        for prefix, root in self.roots.items():
            if path.startswith(prefix):
                target = (root / path[len(prefix):]).resolve()
                if target.is_relative_to(root.resolve()):
                    return str(target)
        return str(TESTS_JS / "__none__")

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):  # quiet: pytest shows failures
        pass


class StaticServer:
    def __init__(self, js_root: Path):
        roots = {"/js/": js_root, "/tests/": TESTS_JS, "/fixtures/": FIXTURES}
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, roots=roots))
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "StaticServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def run_js_tests(driver, js_root: Path) -> list[dict]:
    """Every JS test's {name, ok, error}, once the runner page is done.
    The page runs in Europe/Oslo, so the schedule's weeks and the times
    shown meet a real daylight-saving change and a zone that isn't UTC."""
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Oslo"})
    with StaticServer(js_root) as server:
        driver.get(f"{server.base}/tests/runner.html")
        done = lambda d: d.execute_script("return (window.__jsTests && window.__jsTests.done) || (window.__jsErrors || []).length > 0")
        wait_for(driver, done, "the JS test runner never finished")
        state = driver.execute_script("return {tests: window.__jsTests || null, errors: window.__jsErrors || []}")
    if state["tests"] is None:
        pytest.fail("the JS test runner failed to start:\n" + "\n".join(state["errors"]))
    return state["tests"]["results"]


def test_js_unit_tests_pass(browser):
    results = run_js_tests(browser(), WEB / "js")
    failed = [r for r in results if not r["ok"]]
    assert len(results) >= 30, f"only {len(results)} JS tests ran"
    assert not failed, f"{len(failed)} of {len(results)} JS tests failed:\n" + "\n\n".join(
        f"✗ {r['name']}\n{r['error']}" for r in failed)


# (module, the correct code, a mistake, the test that must catch it)
MUTATIONS = [
    ("ui/frequency.js", r"/^[0-9]{2,3}\.[0-9]{1,3}$/", r"/^\d{2,3}(\.\d)?$/",
     "frequency: 98.35 is a frequency (join.js used to refuse it)"),
    ("ui/wait-text.js", "if (minutes <= 90)", "if (minutes < 120)",
     "wait text: hours beyond that, rounded up"),
    ("playback/timeline.js", "entry.start <= now && now < entry.expiration", "entry.start <= now && now <= entry.expiration",
     "timeline: the entry at an instant: start included, expiration not"),
    ("live/live-sequence.js", ' && message.type !== "snapshot"', "",
     "live sequence: a snapshot after a gap needs no resync: it carries the whole state"),
    ("live/known-tracks.js", "      missing = true;\n", "",
     "known tracks: a track named by id that is not held gives nothing: the client asks for a snapshot"),
    ("playback/clock.js", "(now - sample.midpoint) * this.maxSkew", "0 * this.maxSkew",
     "clock: fixture: old probes age out of favour"),
    ("playback/clock.js", "const allowed = Math.max(0, local - last) * this.maxSlewRate;", "const allowed = Math.abs(local - last) * this.maxSlewRate;",
     "clock: fixture: slewed clock: slews down too"),
    ("views/station/state.js", '.filter((e) => e.source === "dj").pop()', '.filter((e) => e.source === "dj").shift()',
     "station state: toggling a queued track removes its last DJ pick, else its last entry; unqueued: none"),
    ("views/settings/state.js", 'if (owner || member.role === "listener")', 'if (owner || member.role !== "owner")',
     "settings state: people: what the owner and a co-DJ may do"),
    ("views/station/party.js", "request.requesterID === personID", "request.requesterID !== personID",
     "party: rows keep the server's order, with your own votes and your own requests"),
    ("views/station/lobby.js", "standing.ballotID === ballot.id", "standing.ballotID !== ballot.id",
     "lobby: your vote counts only on the ballot it was cast on"),
    # The TV showed the host's vote counts to the whole room.
    ("views/station/room.js", "votes: r.linedUp || !showCounts || r.upvotes == null ?", "votes: r.linedUp || r.upvotes == null ?",
     "party: the TV shows vote counts only when the host shows them to everyone"),
    # A song without lyrics was asked for them (a 404 in every console).
    ("views/station/lyrics-model.js", 'if (!about || about.hasLyrics !== true) return null;', "",
     "lyrics: a track's words are asked for only when its details say it has them (no 404 for a song without)"),
    # The robot station's pill said "Live".
    ("views/station/state.js", 'live: "On air"', 'live: "Live"',
     "station state: the connection pill's words, and the station's line"),
    # A live show without a title read "Live: Live — Alice Adams".
    ("views/station/live-model.js", 'return /^live$/i.test(text) ? "" : text;', "return text;",
     "live takeover: a source with no title: the server's stand-in 'Live' is never a title, the show's or DJ's name is, once"),
    ("views/station/studio-model.js", "Math.max(0, Math.ceil((Number(ms) || 0) / 1000))", "Math.max(0, Math.round((Number(ms) || 0) / 1000))",
     "studio: time left counts whole seconds up: 0:01 until the end, never negative"),
    ("views/station/studio-model.js", "if (span > 0) peaks[span - 1] = Math.max(peaks[span - 1], Number(live) || 0);", "",
     "studio: peaks per minute: absent minutes are 0, oldest first, the minute in progress at least the live count"),
    ("views/history/model.js", "!known.has(e.id) && e.start > newest", "!known.has(e.id)",
     "history: a refresh puts plays that ended since on top and keeps the rest as shown"),
    ("views/station/any-player.js", 'new Set(["public", "unlisted"])', 'new Set(["public", "unlisted", "code", "invite"])',
     "history: any player: public and unlisted stations stream, by frequency or else id; others have none"),
    ("views/identify/model.js", "Math.round((Number(ms) || 0) / 1000)", "Math.floor((Number(ms) || 0) / 1000)",
     "identify: where in the song: 'about M:SS in', rounded to the nearest second"),
    ("views/identify/model.js", 'if (!match || typeof match !== "object" || !match.track || typeof match.track !== "object")', "if (match === null)",
     "identify: the answer: a match, or 'not in this library' for null, a missing match or nonsense"),

    ("views/schedule/phrase.js", "if (interval === 2) return days.length === 1", "if (interval === 3) return days.length === 1",
     "schedule: phrase: every other Tuesday, with the show's own times and zone"),
    ("views/schedule/model.js", "d.setDate(d.getDate() - ((d.getDay() + 6) % 7));", "d.setDate(d.getDate() - d.getDay());",
     "schedule: weeks: Monday to Monday, any day of the week names it"),
    ("views/schedule/model.js", "const next = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i + 1);",
     "const next = new Date(date.getTime() + 86_400_000);",
     "schedule: weeks: a week with the clock change still runs midnight to midnight (Europe/Oslo)"),
    ("views/schedule/model.js", "    timeZone,\n    year:", "    year:",
     "schedule: zones: an instant's local date and time in the show's zone"),
    ("views/schedule/model.js", "moved: spec.moved.filter((m) => m.date !== date),", "moved: spec.moved,",
     "schedule: specs: cancelling adds the original date once and undoes a move of it"),
    ("reminders/plan.js", "if (now >= reminder.next.start) continue;", "",
     "reminders: plan: an episode that has started is past reminding"),
    ("reminders/plan.js", "return Math.max(0, Math.min(max, wakeAt - now));", "return Math.max(0, wakeAt - now);",
     "reminders: plan: the runner sleeps until the next one, at most five minutes"),
    ("views/go-live/model.js", "const at = authority.lastIndexOf(\"@\");", "const at = authority.indexOf(\"@\");",
     "go-live: parse: a password with ':' and '@' in it is kept whole"),
    ("views/go-live/model.js", "if (hostport.startsWith(\"[\")) {", "if (false) {",
     "go-live: parse: an IPv6 host loses its brackets and keeps its port"),
    ("views/go-live/model.js", "let port = ICECAST_PORT;", "let port = null;",
     "go-live: parse: no port is Icecast's 8000; no user part is allowed"),
    ("views/go-live/model.js", "if (port < 1 || port > 65535) return null;", "",
     "go-live: parse: not an address is null"),
    ("views/go-live/model.js", "return sourceURL.split(\"{station}\").join(encodeURIComponent(stationID));", "return sourceURL;",
     "go-live: station: {station} becomes your station's id; without one it stays"),
    ("views/go-live/model.js", "const password = key || (hasKeyPlaceholder(parsed) || !parsed.password ? null : parsed.password);",
     "const password = key || parsed.password || null;",
     "go-live: fields: without the key (a GET answer says KEY) the password is unknown"),
    ("views/go-live/broadcast-model.js", "if (before.ducked && now - before.loudAt < holdMs)", "if (before.ducked && now - before.loudAt < 0)",
     "broadcast: talk-over: the music comes back after 600 ms of quiet, not before"),
    ("views/go-live/broadcast-model.js", "ranges.push([start, Math.min(total, start + step)]);", "ranges.push([start, start + step]);",
     "broadcast: frames: a chunk cut into pieces of at most 64 KiB, in order, none empty"),
    ("views/go-live/broadcast-model.js", "return Math.min(100, Math.max(0, value));", "return Math.min(100, value);",
     "broadcast: meter: −60 dBFS and below is 0, full scale 100, whole numbers between"),
    ("views/go-live/broadcast-model.js", "error.message.trim()) return error.message;", "error.message.trim()) return CODE_WORDS[error.code] || error.message;",
     "broadcast: server: errors are shown word for word; our words only when it sent none"),
    ("views/station/live-model.js", "if (note.live) afterLive = true;", "",
     "live takeover: up next: songs behind a live show say 'after the live show', not a start a day away"),
    ("views/station/live-model.js", "if (Number.isFinite(now) && now < end) end = now;", "",
     "live takeover: history: a past live show reads 'Live: title — DJ' with how long it really ran"),
    ("playback/live-relay.js", "if (!this.url || this.retryTimer || this.state === \"blocked\") return;\n    this.set(this.heard",
     "if (!this.url || this.state === \"blocked\") return;\n    this.set(this.heard",
     "live takeover: relay: a 404 is asked again every 2 s, one request and one timer at a time, until stopped"),
    ("views/station/lyrics-model.js", "if (lines[mid].timeMs <= positionMs) {", "if (lines[mid].timeMs < positionMs) {",
     "lyrics: the line at a position is the last whose time has come; none before the first"),
    ("views/station/lyrics-model.js", "const at = timelineNow(timeline, now);", "const at = now;",
     "lyrics: the clock: a DJ hold freezes the line, and a hold to come stops the wait there"),
    ("views/station/lyrics-model.js", "(error) => (error && error.status === 404 ? { status: \"none\" } : { status: \"error\", at: this.now() }),",
     "(error) => ({ status: \"error\", at: this.now() }),",
     "lyrics: the cache: one request per track, shared while in flight; a 404 is 'none' and kept"),
    ("views/station/lyrics-model.js", "if (this.entries.size <= this.limit) break;", "if (this.entries.size <= this.limit + 5) break;",
     "lyrics: the cache: keeps the 20 most recently used tracks"),
    ("views/station/lyrics-model.js", "(known.status === \"error\" && this.now() - known.at >= this.retryMs)", "(known.status === \"error\")",
     "lyrics: the cache: a failure is asked again only after the retry time"),
    ("views/station/chat-model.js", "if (chat.messages.some((m) => m.id === message.id))", "if (false)",
     "chat: your message shows at once and the server's copy with your ref replaces it: one row, never two"),
    ("views/station/chat-model.js", "if (connection !== null && p.connection !== null && p.connection !== connection) lost.push(p);",
     "if (false) lost.push(p);",
     "chat: a room after a reconnect: a message it holds isn't pending any more; one it lost comes back"),
    ("views/station/chat-model.js", "const mine = String(handle).toLowerCase();", "const mine = String(handle);",
     "chat: mentions: a message names the viewer by their handle, in any case"),
    ("views/station/chat-model.js", "if (sign > 0 && HANDLE_CHAR.test(value[sign - 1])) return null;", "",
     "chat: autocomplete: the @-word at the caret"),
    ("views/station/chat-model.js", "if (key === me || seen.has(key)) continue;", "if (seen.has(key)) continue;",
     "chat: autocomplete: authors seen, newest first, never yourself; starts-with before contains"),
    ("views/station/chat-model.js", "if (left > COUNT_FROM) return", "if (left >= COUNT_FROM) return",
     "chat: characters left: quiet until near the limit, then a count; over it, how many too many"),
    ("views/station/chat-model.js", 'if (person.kind === "guest" && !chat.guestsMayPost && !staff)', 'if (person.kind === "guest" && !chat.guestsMayPost)',
     "chat: the composer: loading, off, sign in, guests not allowed, muted until, open with slow mode"),
    ("views/station/chat-model.js", "const local = new Date(Number(serverMs) - (Number(offset) || 0));", "const local = new Date(Number(serverMs));",
     "chat: the composer: loading, off, sign in, guests not allowed, muted until, open with slow mode"),
    ("views/station/chat-model.js", "if (event.self && m.person && m.person.id === event.self) return unread;", "",
     "chat: unread: counted while not reading, never your own, deleted ones stop counting, reading clears"),
    ("views/station/room-reactions-model.js", "reactions && entryID && reactions.entryID === entryID ? reactions.totals : {}",
     "reactions ? reactions.totals : {}",
     "room reactions: the row: the palette's order, the totals only for the entry playing"),
    ("views/station/room-reactions-model.js", "const room = Math.min(max, total);", "const room = total;",
     "room reactions: a burst floats each emoji sent at least once, more of the more sent, never more than the cap"),
    ("views/clips/recorder-model.js", "if (elapsedMs >= maxMs) {", "if (elapsedMs > maxMs) {",
     "clips: recorder: stops by itself at 30 s, and never counts past it"),
    ("views/clips/recorder-model.js", "if (leftBefore > at && leftAfter <= at) said", "if (leftAfter <= at) said",
     "clips: recorder: the countdown is said at 20, 10 and 5 s left, once each, not every tick"),
    ("views/clips/recorder-model.js", 'return { ...s, status: "recorded", announce: "", error: event.message ||',
     'return { ...s, status: "recorded", recording: null, announce: "", error: event.message ||',
     "clips: recorder: sending keeps the recording on a refusal and lets it go once sent"),
    ("views/clips/clips-model.js", "if (!clip || from.gone.includes(clip.id)) return from;", "if (!clip) return from;",
     "clips: inbox: a shout-out arriving live shows once, stays through an older list, and a deleted one never comes back"),
    ("views/clips/clips-model.js", '.filter((c) => c.status === "pending").sort((a, b) => a.createdAt - b.createdAt);',
     '.filter((c) => c.status === "pending").sort((a, b) => b.createdAt - a.createdAt);',
     "clips: inbox: the server's list, clips waiting oldest first, approved newest first, the quota"),
    ("views/station/state.js", "  if (isVoice(entry)) return voiceNowText(entry);\n", "",
     "clips: voice entries: now playing, Up Next and history say whose clip and the note"),
    ("views/dial/nearby-model.js", 'if (url.protocol !== "http:" && url.protocol !== "https:") return null;', 'if (url.protocol === "data:") return null;',
     "nearby: only plain http(s) links, each once, and no more than the cap"),
]


@pytest.mark.parametrize("module,good,bad,catcher", MUTATIONS, ids=[f"{m[0].rsplit('/', 1)[-1]}-{i}" for i, m in enumerate(MUTATIONS)])
def test_js_unit_tests_catch_a_broken_module(browser, tmp_path, module, good, bad, catcher):
    js_root = tmp_path / "js"
    shutil.copytree(WEB / "js", js_root)
    source = (js_root / module).read_text()
    assert source.count(good) == 1, f"{module} no longer has {good!r}: update this mutation"
    (js_root / module).write_text(source.replace(good, bad))
    results = run_js_tests(browser(), js_root)
    by_name = {r["name"]: r for r in results}
    assert catcher in by_name, f"no JS test named {catcher!r}"
    assert not by_name[catcher]["ok"], f"{catcher!r} passed with {module} broken ({good!r} → {bad!r})"
