"""The station's chat and emoji reactions (issue 14), in real browsers
against the real server.

Three browsers (the owner in the booth, a signed-in listener and a guest
who joins the chat by name from the panel) see every message, the mention
lit for the one it names, and the author sees their own once (the
optimistic row becomes the server's, never a second). Hostile text (an
<img onerror>, a <script>, a javascript: link) is shown as the literal
words in every browser, with no element made and nothing run. A browser
that tunes in afterwards gets the history. @-autocomplete by keyboard only.

The owner moderates from each message's menu: delete (gone everywhere),
mute (the listener sees "You're muted until HH:MM" instead of the input and
the server refuses their message, read over a WebSocket of the test's own),
unmute from the mute list, slow mode (the listener's note and the server's
refusal beside the input, the words kept), delete all by a person, and
clear. The host's party settings turn the chat off (the panel says so, no
input) and on again, and stop guests posting (the guest is told). A
listener hides the chat (remembered after a reload), and the badge counts
messages from others while it is hidden or scrolled away; showing it or
reading down clears the badge.

Reactions: a listener presses 🔥 twice, and the others' totals show 🔥 2
for the song playing; the burst floats over the art (seen by a
MutationObserver), and not with prefers-reduced-motion, where only the
totals change. The station with the chat open fits at every width.

Every wait is for a condition on the page or the server (helpers.PATIENCE
bounds it); nothing asserts a timing.
"""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import LiveListener, log_in_browser, signup, unique_handle
from conftest import DESKTOP, PHONE, at_every_width
from helpers import assert_fits, click, find, no_alert, press, queue_and_cut_to, save_party, tab_to, wait_for

CHAT_JS = """
const panel = document.querySelector('.chat-panel');
const screen = document.querySelector('.station-screen');
if (!panel || !screen) return null;
const input = document.getElementById('chat-input');
const rows = [...panel.querySelectorAll('.chat-log .chat-msg')];
const shown = (el) => Boolean(el) && !el.closest('[hidden]') && el.getClientRects().length > 0;
return {
  ready: screen.dataset.state === 'ready',
  role: screen.dataset.role || null,
  panelShown: shown(panel),
  composer: panel.dataset.composer,
  enabled: panel.dataset.enabled,
  unread: Number(panel.dataset.unread || 0),
  badge: shown(panel.querySelector('.chat-unread')) ? panel.querySelector('.chat-unread').textContent : '',
  toggleName: panel.querySelector('.btn-chat-toggle').textContent,
  pressed: panel.querySelector('.btn-chat-toggle').getAttribute('aria-pressed'),
  logShown: shown(panel.querySelector('.chat-log')),
  inputShown: shown(input),
  notice: shown(panel.querySelector('.chat-notice')) ? panel.querySelector('.chat-notice-text').textContent : '',
  slow: shown(panel.querySelector('.chat-slow-note')) ? panel.querySelector('.chat-slow-note').textContent : '',
  error: panel.querySelector('#chat-error').textContent,
  draft: input ? input.value : null,
  jump: shown(panel.querySelector('.chat-jump')) ? panel.querySelector('.chat-jump').textContent : '',
  messages: rows.map(li => ({
    id: li.dataset.messageId || null, person: li.dataset.personId, pending: li.dataset.pending === 'true',
    name: li.querySelector('.chat-name').textContent, handle: li.querySelector('.chat-handle').textContent,
    text: li.querySelector('.chat-text').textContent, mention: li.classList.contains('is-mention'),
    time: li.querySelector('.chat-time').textContent})),
  made: [...panel.querySelectorAll('.chat-log *')].map(e => e.tagName.toLowerCase())
    .filter(t => !['li', 'div', 'span', 'p', 'time', 'button'].includes(t)),
  log: {role: panel.querySelector('.chat-log').getAttribute('role'), live: panel.querySelector('.chat-log').getAttribute('aria-live')},
};
"""

REACTIONS_JS = """
const row = document.querySelector('.room-reactions');
const screen = document.querySelector('.station-screen');
if (!row) return null;
const layer = document.querySelector('.art-stage .reaction-burst');
return {
  shown: !row.hidden && row.getClientRects().length > 0,
  entryID: row.dataset.entryId || null,
  playing: screen ? screen.dataset.entryId || null : null,
  order: [...row.querySelectorAll('.btn-room-react')].map(b => b.dataset.emoji),
  counts: Object.fromEntries([...row.querySelectorAll('.btn-room-react')].map(b => [b.dataset.emoji, Number(b.dataset.count || 0)])),
  labels: [...row.querySelectorAll('.btn-room-react')].map(b => b.getAttribute('aria-label')),
  shownCounts: Object.fromEntries([...row.querySelectorAll('.btn-room-react')].map(b => [b.dataset.emoji, b.querySelector('.room-react-count').textContent])),
  bursts: layer ? Number(layer.dataset.bursts || 0) : -1,
  floated: window.__floated || [],
  status: (row.querySelector('.room-react-status') || {}).textContent || '',
};
"""

# Records every emoji that floats over the art (they are gone again in a
# couple of seconds, so the test looks at what was added, not what is left).
WATCH_BURSTS = """
window.__floated = [];
const layer = document.querySelector('.art-stage .reaction-burst');
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType === 1 && n.classList.contains('burst-emoji')) window.__floated.push(n.textContent);
  }
}).observe(layer, {childList: true});
return Boolean(layer);
"""

HOSTILE = [
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=2</script>",
    "look javascript:window.__pwned=3 and https://example.org/?q=<b>x</b>",
]


def chat(d) -> dict | None:
    return d.execute_script(CHAT_JS)


def reactions(d) -> dict | None:
    return d.execute_script(REACTIONS_JS)


def texts(d) -> list[str]:
    """The saved messages' texts, in the order shown."""
    state = chat(d) or {"messages": []}
    return [m["text"] for m in state["messages"] if not m["pending"]]


def open_station(d, server, sid: str, composer: str | None = None) -> dict:
    """Opens the station and waits for the screen and the room."""
    d.get(f"{server.base}/#/station/{sid}")
    wait_for(d, lambda d: (lambda c: c and c["ready"] and c["panelShown"] and c["composer"] != "loading")(chat(d)),
             "the station's chat never showed")
    if composer:
        wait_for_composer(d, composer)
    return chat(d)


def wait_for_composer(d, mode: str) -> dict:
    seen = {}

    def check(d):
        seen["chat"] = chat(d)
        return seen["chat"] and seen["chat"]["composer"] == mode

    try:
        wait_for(d, check)
    except Exception:
        raise AssertionError(f"the composer never became {mode!r}: {seen.get('chat')}") from None
    return seen["chat"]


def booth(d, server, account, sid: str) -> None:
    log_in_browser(d, server, account)
    open_station(d, server, sid)
    wait_for(d, lambda d: (chat(d) or {}).get("role") == "owner", "the booth never opened")


def type_message(d, text: str) -> None:
    field = find(d, "#chat-input")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(text)


def post(d, text: str) -> dict:
    """Types `text` and presses ENTER; waits until the server saved it (the row is no longer pending)."""
    type_message(d, text)
    find(d, "#chat-input").send_keys(Keys.ENTER)
    expected = text.strip()
    seen = {}

    def saved(d):
        seen["chat"] = state = chat(d)
        mine = [m for m in state["messages"] if m["text"] == expected]
        return mine and all(not m["pending"] for m in mine) and state["draft"] == "" and mine[-1]

    try:
        return wait_for(d, saved)
    except Exception:
        raise AssertionError(f"{text!r} was never saved: the page shows {seen.get('chat')}") from None


def wait_text(d, text: str, what: str = "") -> dict:
    def there(d):
        found = [m for m in (chat(d) or {"messages": []})["messages"] if m["text"] == text and not m["pending"]]
        return found[0] if found else None

    try:
        return wait_for(d, there)
    except Exception:
        raise AssertionError(f"{what or text!r} never showed: {chat(d)}") from None


def wait_gone(d, text: str, what: str = "") -> None:
    try:
        wait_for(d, lambda d: text not in texts(d))
    except Exception:
        raise AssertionError(f"{what or text!r} never went: {texts(d)}") from None


def no_pwn(d) -> bool:
    return d.execute_script("return typeof window.__pwned") == "undefined"


def join_as_guest(d, name: str) -> None:
    """From the chat's own prompt: a name, then Join the chat."""
    wait_for_composer(d, "anonymous")
    field = find(d, "#chat-guest-name")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys(name, Keys.ENTER)
    wait_for_composer(d, "open")
    wait_for(d, lambda d: d.execute_script("return window.__wavelength.session.person?.kind") == "guest")


def ws_chat(server, sid: str, token: str, text: str) -> dict:
    """Sends a chat message over a WebSocket of the test's own: the server's answer to it (its copy or an error)."""
    with LiveListener(server, sid, token) as listener:
        wait_for(None, lambda _: any(m.get("type") == "chatRoom" for m in listener.messages))
        listener.ws.send(json.dumps({"type": "chat", "id": "test-ws-1", "text": text}))
        return wait_for(None, lambda _: next((m for m in listener.messages if m.get("id") == "test-ws-1" or m.get("ref") == "test-ws-1"), None))


def hold(server, sid: str, token: str) -> None:
    """Holds the station, so the song playing stays the one playing."""
    server.command(sid, token, {"op": "pause"})
    wait_for(None, lambda _: server.timeline(sid).get("pausedAt") is not None)


# ---------------------------------------------------------------------------


def test_chat_in_three_browsers_with_mentions_history_and_hostile_text(demo_server, browser, shot):
    server = demo_server
    owner = signup(server, unique_handle("ownr"), "Owner Ophelia")
    listener = signup(server, unique_handle("lisn"), "Lis <b>Tener</b>")
    sid = owner.station_id

    o = browser(DESKTOP)
    booth(o, server, owner, sid)
    state = wait_for_composer(o, "open")
    assert state["log"] == {"role": "log", "live": "polite"}, state
    assert state["messages"] == [] and state["enabled"] == "true", state

    li = browser(PHONE)
    log_in_browser(li, server, listener)
    open_station(li, server, sid, "open")
    assert (chat(li) or {})["role"] == "listener"

    # The guest tunes in without a name: the chat asks for one, then lets them in.
    g = browser(PHONE)
    open_station(g, server, sid, "anonymous")
    state = chat(g)
    assert "Sign in or join with a name" in state["notice"] and not state["inputShown"], state
    join_as_guest(g, "Gus the Guest")

    # The listener names the owner: everyone sees it; the owner's copy is lit.
    first = f"hello @{owner.handle}, great set"
    mine = post(li, first)
    for d in (o, g):
        wait_text(d, first)
    owner_row = wait_text(o, first)
    assert owner_row["mention"], owner_row
    assert owner_row["name"] == "Lis <b>Tener</b>" and owner_row["handle"] == f"@{listener.handle}", owner_row
    assert owner_row["id"] == mine["id"] and owner_row["id"].startswith("m"), (owner_row, mine)
    assert not wait_text(g, first)["mention"] and not mine["mention"]

    # The guest names the listener: lit for the listener only.
    second = f"hi @{listener.handle} from the guest"
    guest_row = post(g, second)
    assert guest_row["handle"] == "guest" and guest_row["name"] == "Gus the Guest", guest_row
    assert wait_text(li, second)["mention"]
    assert not wait_text(o, second)["mention"]

    # The owner answers from the booth.
    post(o, "welcome, both of you")
    for d in (li, g):
        wait_text(d, "welcome, both of you")

    # Each author saw their own message once: the optimistic row became the saved one.
    for d in (o, li, g):
        shown = texts(d)
        assert shown == [first, second, "welcome, both of you"], shown
        assert not [m for m in chat(d)["messages"] if m["pending"]]
    shot(li, "three-browsers-listener")
    shot(o, "three-browsers-booth")

    # Hostile text: literal words in every browser, no element made, nothing run.
    for text in HOSTILE:
        post(li, text)
    for d in (o, li, g):
        for text in HOSTILE:
            wait_text(d, text)
        state = chat(d)
        assert state["made"] == [], state["made"]
        assert d.execute_script("return document.querySelectorAll('.chat-panel img, .chat-panel script, .chat-panel a[href^=\"javascript\"]').length") == 0
        assert no_pwn(d), "a message ran as script"
        assert no_alert(d)
    shot(o, "hostile-text")

    # A browser that tunes in now gets the history (the newest 50, oldest first).
    late = browser(PHONE)
    open_station(late, server, sid, "anonymous")
    wait_for(late, lambda d: texts(d) == [first, second, "welcome, both of you", *HOSTILE], f"the history never came: {texts(late)}")
    assert no_pwn(late) and chat(late)["made"] == []
    shot(late, "history-on-join")


def test_mention_autocomplete_by_keyboard_only(demo_server, browser, shot):
    server = demo_server
    owner = signup(server, unique_handle("kbown"), "Keys Owner")
    ana = signup(server, unique_handle("anaa"), "Ana Keys")
    bob = signup(server, unique_handle("bobb"), "Bob Keys")
    sid = owner.station_id
    # Two people have spoken, so their handles are known to the chat.
    for person, text in ((ana, "first!"), (bob, "second!")):
        answer = ws_chat(server, sid, person.token, text)
        assert answer.get("type") == "chat", answer

    d = browser(PHONE)
    log_in_browser(d, server, owner)
    open_station(d, server, sid, "open")
    wait_for(d, lambda d: texts(d) == ["first!", "second!"])
    # TAB to the input, like someone without a mouse.
    d.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
    focused = tab_to(d, lambda f: "chat-input" in (f.get("cls") or ""), limit=200)
    assert focused["tag"] == "input"

    combobox = """
    const i = document.getElementById('chat-input');
    const list = document.getElementById(i.getAttribute('aria-controls'));
    const activeID = i.getAttribute('aria-activedescendant');
    return {role: i.getAttribute('role'), expanded: i.getAttribute('aria-expanded'), listRole: list.getAttribute('role'),
            open: !list.hidden, options: [...list.querySelectorAll('[role=option]')].map(o => o.dataset.handle),
            active: activeID ? document.getElementById(activeID)?.dataset.handle : null, value: i.value,
            focused: document.activeElement === i};
    """
    box = lambda: d.execute_script(combobox)
    # "@" offers both, the newest speaker first; ↓ moves to the next.
    press(d, "@")
    wait_for(d, lambda d: box()["open"])
    state = box()
    assert state["role"] == "combobox" and state["listRole"] == "listbox" and state["expanded"] == "true", state
    assert state["options"] == [bob.handle, ana.handle] and state["active"] == bob.handle, state
    press(d, Keys.ARROW_DOWN)
    wait_for(d, lambda d: box()["active"] == ana.handle)
    press(d, Keys.ARROW_UP)
    wait_for(d, lambda d: box()["active"] == bob.handle)
    shot(d, "autocomplete-open")
    # Esc closes it and keeps the text.
    press(d, Keys.ESCAPE)
    wait_for(d, lambda d: not box()["open"])
    assert box()["expanded"] == "false" and box()["value"] == "@"
    # Letters narrow it: "@" + ana's first letters; ENTER picks.
    press(d, ana.handle[:3])
    wait_for(d, lambda d: box()["options"] == [ana.handle])
    press(d, Keys.ENTER)
    wait_for(d, lambda d: box()["value"] == f"@{ana.handle} " and not box()["open"])
    assert texts(d) == ["first!", "second!"], "ENTER picked, it didn't send"
    # Then the rest, and Tab picks too.
    press(d, "and @" + bob.handle[:3])
    wait_for(d, lambda d: box()["options"] == [bob.handle])
    press(d, Keys.TAB)
    wait_for(d, lambda d: box()["value"] == f"@{ana.handle} and @{bob.handle} " and box()["focused"])
    press(d, "see you")
    press(d, Keys.ENTER)
    sent = f"@{ana.handle} and @{bob.handle} see you"
    wait_text(d, sent)
    assert box()["value"] == ""
    # Near the limit the characters left are counted; over it, ENTER says why and keeps the words.
    press(d, "x" * 260)
    wait_for(d, lambda d: find(d, "#chat-count").text == "40 characters left")
    press(d, "y" * 50)
    wait_for(d, lambda d: find(d, "#chat-count").text == "10 too many")
    press(d, Keys.ENTER)
    wait_for(d, lambda d: (chat(d) or {}).get("error") == "A message is at most 300 characters.")
    assert box()["value"] == "x" * 260 + "y" * 50 and texts(d)[-1] == sent
    # The server read the mentions as the page offered them.
    with LiveListener(server, sid, ana.token) as listener:
        room = wait_for(None, lambda _: next((m for m in listener.messages if m.get("type") == "chatRoom"), None))
    saved = [m for m in room["room"]["messages"] if m["text"] == sent]
    assert saved and saved[0]["mentions"] == [ana.handle, bob.handle], room


def open_menu(d, text: str):
    """Opens the menu of the message saying `text` (a moderator's booth); its row's selector."""
    row = wait_text(d, text)
    selector = f".chat-msg[data-message-id='{row['id']}']"
    button = find(d, f"{selector} .chat-msg-menu")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait_for(d, lambda d: find(d, f"{selector} .chat-msg-tools").is_displayed())
    assert button.get_attribute("aria-expanded") == "true"
    return selector


def open_moderation(d) -> None:
    if not d.execute_script("return document.querySelector('.chat-mod').open"):
        summary = find(d, ".chat-mod-summary")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        summary.click()
    wait_for(d, lambda d: find(d, "#chat-slow-mode").is_displayed())



def owner_and_listener(server, browser, owner_name: str, listener_name: str):
    """An owner in the booth (desktop) and a signed-in listener (phone),
    both with the chat open: (owner, listener, station id, their browsers)."""
    owner = signup(server, unique_handle("own"), owner_name)
    listener = signup(server, unique_handle("lis"), listener_name)
    sid = owner.station_id
    o = browser(DESKTOP)
    booth(o, server, owner, sid)
    wait_for_composer(o, "open")
    li = browser(PHONE)
    log_in_browser(li, server, listener)
    open_station(li, server, sid, "open")
    return owner, listener, sid, o, li


def test_the_owner_moderates_the_chat(demo_server, browser, shot):
    from selenium.webdriver.support.ui import Select

    server = demo_server
    owner, listener, sid, o, li = owner_and_listener(server, browser, "Mod Owner", "Loud Listener")
    assert find(li, ".chat-mod").get_attribute("hidden") is not None, "a listener has no moderation tools"
    assert not li.find_elements(By.CSS_SELECTOR, ".chat-msg-menu")

    post(li, "first from the listener")
    post(li, "second from the listener")
    post(o, "the owner's own line")
    for text in ("first from the listener", "second from the listener"):
        wait_text(o, text)
    wait_text(li, "the owner's own line")
    # The owner's own message: delete, but no muting yourself.
    own = open_menu(o, "the owner's own line")
    assert not o.find_elements(By.CSS_SELECTOR, f"{own} .chat-tool-mute"), "an owner can't mute themselves"
    press(o, Keys.ESCAPE)

    # Delete one message: gone in both browsers.
    row = open_menu(o, "first from the listener")
    shot(o, "message-menu")
    click(o, f"{row} .chat-tool-delete")
    for d in (o, li):
        wait_gone(d, "first from the listener")
    assert texts(li) == ["second from the listener", "the owner's own line"]

    # Mute the listener for 15 minutes: they see when it ends instead of the input…
    row = open_menu(o, "second from the listener")
    click(o, f"{row} .chat-tool-mute[data-minutes='15']")
    state = wait_for_composer(li, "muted")
    assert state["notice"].startswith("You're muted until "), state
    assert state["notice"][len("You're muted until "):].replace(".", ":").count(":") == 1, state
    assert not state["inputShown"], state
    shot(li, "muted")
    # …and the server refuses what they send anyway.
    answer = ws_chat(server, sid, listener.token, "am I muted?")
    assert answer.get("type") == "error" and answer.get("code") == "muted", answer
    # The owner's mute list names them; Unmute gives the input back.
    open_moderation(o)
    muted_row = f".chat-muted-row[data-person-id='{listener.id}']"
    wait_for(o, lambda d: d.find_elements(By.CSS_SELECTOR, muted_row), "the mute list never named the listener")
    assert "Loud Listener" in find(o, muted_row).text
    shot(o, "mute-list")
    click(o, f"{muted_row} .chat-unmute")
    wait_for_composer(li, "open")
    wait_for(o, lambda d: not d.find_elements(By.CSS_SELECTOR, muted_row))

    # Slow mode, one message a minute: the listener is told; a second message is refused, the words kept.
    Select(find(o, "#chat-slow-mode")).select_by_value("60")
    wait_for(li, lambda d: (chat(d) or {}).get("slow") == "Slow mode: one message every 60 s", f"no slow-mode note: {chat(li)}")
    shot(li, "slow-mode")
    refused = None
    for attempt in ("slow one", "slow two"):
        type_message(li, attempt)
        find(li, "#chat-input").send_keys(Keys.ENTER)
        outcome = wait_for(li, lambda d: (lambda c: "refused" if c["error"] else ("saved" if attempt in texts(d) and c["draft"] == "" else None))(chat(d)))
        if outcome == "refused":
            refused = attempt
            break
    assert refused, "slow mode never refused a message"
    state = chat(li)
    assert state["error"].startswith("Slow mode is on: one message every 60 s"), state
    assert state["draft"] == refused, "the refused words went back in the input"
    assert refused not in texts(li) and refused not in texts(o)
    # Slow mode off: the note goes, and the words kept are sent.
    Select(find(o, "#chat-slow-mode")).select_by_value("0")
    wait_for(li, lambda d: (chat(d) or {}).get("slow") == "", "the slow-mode note never went")
    find(li, "#chat-input").send_keys(Keys.ENTER)
    wait_text(o, refused)

    # Delete all by the listener: theirs go, the owner's stays.
    row = open_menu(o, refused)
    click(o, f"{row} .chat-tool-delete-all")
    for d in (o, li):
        wait_for(d, lambda d: texts(d) == ["the owner's own line"], f"delete-all left {texts(d)}")

    # Clear the chat (asked twice): empty everywhere.
    post(li, "one more before the clear")
    wait_text(o, "one more before the clear")
    click(o, ".chat-clear")
    wait_for(o, lambda d: find(d, ".chat-clear-confirm").is_displayed())
    click(o, ".chat-clear-confirm")
    for d in (o, li):
        wait_for(d, lambda d: texts(d) == [] and find(d, ".chat-empty").is_displayed(), "the chat never cleared")
    # And the room a newcomer gets is empty too.
    newcomer = browser(PHONE)
    open_station(newcomer, server, sid)
    assert texts(newcomer) == []



def test_the_host_turns_the_chat_off_and_keeps_guests_out(demo_server, browser, shot):
    from accounts_api import guest

    server = demo_server
    owner = signup(server, unique_handle("offo"), "Switch Owner")
    listener = signup(server, unique_handle("offl"), "Switch Listener")
    sid = owner.station_id
    post_ws = ws_chat(server, sid, listener.token, "before the switch")
    assert post_ws.get("type") == "chat", post_ws

    host = browser(DESKTOP)
    log_in_browser(host, server, owner, f"/station/{sid}/settings")
    wait_for(host, lambda d: d.execute_script("return document.querySelector('.party-form #party-chat') !== null"))
    wait_for(host, lambda d: find(d, "#party-chat").is_selected() and find(d, "#party-guest-chat").is_selected(),
             "the form never showed chat and guest chat on")

    li = browser(PHONE)
    log_in_browser(li, server, listener)
    open_station(li, server, sid, "open")
    g = browser(PHONE)
    open_station(g, server, sid)
    join_as_guest(g, "Guest Gita")
    wait_text(g, "before the switch")

    # Off: the panel says so, with no input and no messages, live.
    save_party(host, {"party-chat": False})
    for d in (li, g):
        state = wait_for_composer(d, "off")
        assert state["notice"] == "The chat is off on this station." and not state["inputShown"] and not state["logShown"], state
        assert texts(d) == []
    shot(li, "chat-off")
    # Still off after a reload, and the server agrees.
    li.refresh()
    open_station(li, server, sid, "off")
    assert ws_chat(server, sid, listener.token, "anyone?").get("code") == "chat_off"

    # On again: the input is back, and a message goes through.
    save_party(host, {"party-chat": True})
    for d in (li, g):
        wait_for_composer(d, "open")
    post(g, "guests can talk")
    wait_text(li, "guests can talk")

    # Guests may not chat: the guest is told (and shown the way to an account); the listener isn't.
    save_party(host, {"party-guest-chat": False})
    state = wait_for_composer(g, "guests-off")
    assert "hasn't let guests chat" in state["notice"] and not state["inputShown"], state
    assert find(g, ".chat-sign-up").is_displayed()
    shot(g, "guests-off")
    wait_for_composer(li, "open")
    post(li, "members still talk")
    wait_text(g, "members still talk")
    visitor = guest(server, "Another Guest")
    assert ws_chat(server, sid, visitor.token, "let me in").get("code") == "chat_not_allowed"
    # The form remembers it (GET …/party's settings.guestChat).
    host.refresh()
    wait_for(host, lambda d: d.execute_script("return document.querySelector('.party-form #party-chat') !== null"))
    wait_for(host, lambda d: find(d, "#party-chat").is_selected() and not find(d, "#party-guest-chat").is_selected(),
             "the form doesn't show guest chat off after a reload")
    assert server.get(f"/api/stations/{sid}/party", token=owner.token)["settings"]["guestChat"] is False
    # And back on.
    save_party(host, {"party-guest-chat": True})
    wait_for_composer(g, "open")


def test_hidden_chat_counts_unread_messages(demo_server, browser, shot):
    server = demo_server
    owner, listener, sid, o, li = owner_and_listener(server, browser, "Unread Owner", "Unread Listener")

    # The listener hides the chat by keyboard.
    li.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
    tab_to(li, lambda f: "btn-chat-toggle" in (f.get("cls") or ""), limit=150)
    press(li, Keys.SPACE)
    wait_for(li, lambda d: (lambda c: c["pressed"] == "false" and not c["logShown"])(chat(d)), "the toggle didn't hide the chat")
    assert li.execute_script("return localStorage.getItem('wavelength.chat')") == "hidden"
    assert chat(li)["badge"] == ""

    # Another browser posts: the badge counts; the listener's own doesn't.
    post(o, "while you were away")
    wait_for(li, lambda d: chat(d)["badge"] == "1", f"no badge: {chat(li)}")
    post(o, "and another")
    wait_for(li, lambda d: chat(d)["badge"] == "2")
    assert "2 unread messages" in chat(li)["toggleName"]
    shot(li, "hidden-with-badge")

    # Still hidden after a reload (what was there before isn't news).
    li.refresh()
    open_station(li, server, sid)
    state = chat(li)
    assert state["pressed"] == "false" and not state["logShown"] and state["badge"] == "", state
    post(o, "after the reload")
    wait_for(li, lambda d: chat(d)["badge"] == "1")

    # Showing it clears the badge.
    click(li, ".btn-chat-toggle")
    wait_for(li, lambda d: (lambda c: c["pressed"] == "true" and c["logShown"] and c["badge"] == "")(chat(d)))
    assert texts(li) == ["while you were away", "and another", "after the reload"]
    assert li.execute_script("return localStorage.getItem('wavelength.chat')") is None

    # Enough talk to scroll: three more people, four lines each.
    talkers = [signup(server, unique_handle(f"tk{i}"), f"Talker {i}") for i in range(3)]
    for person in talkers:
        with LiveListener(server, sid, person.token) as ws:
            wait_for(None, lambda _: any(m.get("type") == "chatRoom" for m in ws.messages))
            for n in range(4):
                ws.ws.send(json.dumps({"type": "chat", "id": f"fill-{n}", "text": f"filler {n} from {person.display_name}"}))
            wait_for(None, lambda _: sum(1 for m in ws.messages if m.get("type") == "chat" and m.get("ref")) == 4)
    wait_for(li, lambda d: len(texts(d)) == 15)
    scrollable = "const l = document.querySelector('.chat-log'); return l.scrollHeight > l.clientHeight + 40;"
    assert li.execute_script(scrollable), "the log should scroll by now"
    # Read to the newest as they came: nothing unread.
    assert chat(li)["badge"] == ""
    # Scrolled up to read the start: a new message counts, with a way back down.
    li.execute_script("document.querySelector('.chat-log').scrollTop = 0")
    post(o, "new while you scrolled up")
    wait_for(li, lambda d: (lambda c: c["badge"] == "1" and c["jump"] == "↓ 1 new message")(chat(d)), f"no badge while scrolled away: {chat(li)}")
    shot(li, "scrolled-away")
    click(li, ".chat-jump")
    wait_for(li, lambda d: (lambda c: c["badge"] == "" and c["jump"] == "")(chat(d)))
    assert li.execute_script("const l = document.querySelector('.chat-log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 30")


def test_reactions_burst_over_the_art_and_count_for_the_song(demo_server, browser, shot):
    server = demo_server
    owner = signup(server, unique_handle("rxo"), "React Owner")
    listener = signup(server, unique_handle("rxl"), "React Listener")
    sid = owner.station_id

    o = browser(DESKTOP)
    booth(o, server, owner, sid)
    hold(server, sid, owner.token)
    playing = server.timeline(sid)["current"]
    li = browser(PHONE)
    log_in_browser(li, server, listener)
    open_station(li, server, sid)
    # A listener who isn't signed in, and wants no motion.
    anon = browser(PHONE)
    anon.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    open_station(anon, server, sid, "anonymous")

    for d in (o, li, anon):
        wait_for(d, lambda d: (lambda r: r and r["shown"] and r["entryID"] == playing["id"])(reactions(d)), f"no reactions row for {playing['id']}")
        assert d.execute_script(WATCH_BURSTS)
    state = reactions(li)
    assert state["order"] == ["🔥", "❤️", "🙌", "😂", "😮", "💃"], state
    assert state["labels"][0] == "React with Fire", state

    # The listener presses 🔥 twice: everyone's totals for this song say 2.
    fire = ".btn-room-react[data-emoji='🔥']"
    click(li, fire)
    click(li, fire)
    for d in (o, anon, li):
        wait_for(d, lambda d: (lambda r: r["counts"]["🔥"] == 2 and r["entryID"] == playing["id"] == r["playing"])(reactions(d)),
                 f"🔥 2 never showed: {reactions(d)}")
        assert reactions(d)["shownCounts"]["🔥"] == "2"
    assert reactions(o)["labels"][0] == "React with Fire (2 so far for this song)"
    # The burst floated over the art for the owner, not for the listener who asked for no motion.
    wait_for(o, lambda d: "🔥" in reactions(d)["floated"], "no burst over the art")
    shot(o, "burst")
    assert reactions(anon)["bursts"] >= 1 and reactions(anon)["floated"] == [], reactions(anon)

    # Anyone may react, signed in or not.
    click(anon, ".btn-room-react[data-emoji='😂']")
    for d in (o, li):
        wait_for(d, lambda d: reactions(d)["counts"]["😂"] == 1)
    assert reactions(o)["counts"] == {"🔥": 2, "❤️": 0, "🙌": 0, "😂": 1, "😮": 0, "💃": 0}
    shot(li, "reaction-totals")
    assert_fits(li, "reactions", [".room-reactions", ".btn-room-react[data-emoji='💃']"])

    # Tuning in later, the totals come with the room.
    late = browser(PHONE)
    open_station(late, server, sid)
    wait_for(late, lambda d: (lambda r: r and r["counts"]["🔥"] == 2 and r["counts"]["😂"] == 1)(reactions(d)))

    # The next song starts from nothing.
    nxt = server.skip(sid, owner.token, playing["id"])["current"]
    for d in (o, li, anon):
        wait_for(d, lambda d: (lambda r: r["entryID"] == nxt["id"] and sum(r["counts"].values()) == 0)(reactions(d)),
                 f"the totals of the last song stayed: {reactions(d)}")


# Ten presses at once, as fast as the page allows (it keeps its own count).
PRESS_TEN = """
const button = document.querySelector(".btn-room-react[data-emoji='🔥']");
for (let i = 0; i < 10; i++) button.click();
return document.querySelectorAll('.toast-error').length;
"""


def test_reacting_from_two_devices_past_the_limit_is_refused_in_the_reactions_row(demo_server, browser, shot):
    """The server counts a person's reactions across all their devices. A
    refusal comes back with the reaction's id, so the page says it beside
    the reactions, not as a stray error toast."""
    server = demo_server
    owner = signup(server, unique_handle("rfo"), "Refusal Owner")
    listener = signup(server, unique_handle("rfl"), "Two Devices")
    sid = owner.station_id
    phone, laptop = browser(PHONE), browser(DESKTOP)
    for d in (phone, laptop):
        log_in_browser(d, server, listener)
        open_station(d, server, sid)
    hold(server, sid, owner.token)
    playing = server.timeline(sid)["current"]
    for d in (phone, laptop):
        wait_for(d, lambda d: (lambda r: r and r["shown"] and r["entryID"] == playing["id"])(reactions(d)))
    told_too_fast = lambda d: "all your devices" in reactions(d)["status"]  # noqa: E731

    def press_both() -> None:
        for d in (phone, laptop):
            assert d.execute_script(PRESS_TEN) == 0

    # Each device may press ten times in five seconds; together they pass
    # the server's ten for a person, and one of them is refused.
    press_both()

    def settled(_) -> bool:
        if any(told_too_fast(d) for d in (phone, laptop)):
            return True
        # All twenty taken: five seconds went by between the two devices
        # (a very slow machine), so both may press again.
        if reactions(phone)["counts"]["🔥"] % 20 == 0 and reactions(phone)["counts"]["🔥"] > 0:
            press_both()
        return False

    wait_for(None, settled, "no device was told it reacted too fast")
    told = next(d for d in (phone, laptop) if told_too_fast(d))
    shot(told, "reactions-refused")
    assert reactions(told)["status"] == "Easy there: ten reactions every five seconds, on all your devices together."
    # Not as an error toast: none came up on either device.
    assert not phone.find_elements(By.CSS_SELECTOR, ".toast-error") and not laptop.find_elements(By.CSS_SELECTOR, ".toast-error")
    # Both devices show what the server took, the same on each.
    wait_for(phone, lambda d: reactions(d)["counts"]["🔥"] == reactions(laptop)["counts"]["🔥"] > 0)


def test_the_station_with_the_chat_fits_every_width(demo_server, browser, shot):
    server = demo_server
    owner = signup(server, unique_handle("wido"), "Width Owner")
    listener = signup(server, unique_handle("widl"), "Listener With A Rather Long Display Name")
    sid = owner.station_id
    for person, text in (
        (listener, "x" * 180),
        (listener, "https://example.org/a/very/long/link/that/never/breaks/by/itself/" + "y" * 60),
        (owner, f"@{listener.handle} thanks for tuning in, here's a longer line to wrap over a few lines on a phone"),
    ):
        answer = ws_chat(server, sid, person.token, text)
        assert answer.get("type") == "chat", answer

    d = browser(PHONE)
    log_in_browser(d, server, listener)
    open_station(d, server, sid, "open")
    wait_for(d, lambda d: len(texts(d)) == 3)
    type_message(d, "@")
    wait_for(d, lambda d: find(d, "#chat-suggestions").is_displayed())
    keys = [".chat-panel", ".chat-log", "#chat-input", ".btn-chat-send", ".btn-chat-toggle", ".room-reactions", ".btn-play"]
    at_every_width(d, shot, "listener-with-chat", keys, reveal=".chat-panel", block="center")

    o = browser(DESKTOP)
    booth(o, server, owner, sid)
    wait_for(o, lambda d: len(texts(d)) == 3)
    open_moderation(o)
    row = open_menu(o, "x" * 180)
    at_every_width(o, shot, "booth-with-chat", [*keys, ".chat-mod", f"{row} .chat-tool-mute[data-minutes='60']"],
                   restore=DESKTOP, reveal=f"{row}", block="center")


PLACE_JS = """
const row = document.querySelector(arguments[0]);
const words = document.querySelector('.lyrics-panel');
const wordsBox = words.getBoundingClientRect();
return {rowTop: row.getBoundingClientRect().top, wordsShown: !words.hidden && wordsBox.height > 0,
        wordsTop: wordsBox.top, wordsTrack: words.dataset.trackId || null};
"""


def test_the_chat_stays_put_when_the_words_of_a_song_go(demo_server, browser, shot):
    """A song with lyrics ends while the moderator (desktop booth) and a
    listener (phone) read the chat below its words, scrolled so that the
    words begin above the top of the window: the message each is looking at
    stays where it was on screen, and the moderator's tap on its menu opens
    it. (It jumped 460 px up, under the header, and the tap hit the header.)"""
    server = demo_server
    owner = signup(server, unique_handle("stay"), "Steady Owner")
    listener = signup(server, unique_handle("stal"), "Steady Listener")
    sid = owner.station_id
    for person, text in ((listener, "first: " + "w" * 150), (listener, "second"), (owner, "third")):
        assert ws_chat(server, sid, person.token, text).get("type") == "chat"
    tracks = server.tracks()
    cafe = next(t for t in tracks if t["title"] == "Café Nocturne")
    plain = next(t for t in tracks if t["title"] == "Minuit à Montréal")
    timeline = queue_and_cut_to(server, sid, owner.token, [cafe, plain])

    o = browser(DESKTOP)
    booth(o, server, owner, sid)
    open_moderation(o)
    li = browser(PHONE)
    log_in_browser(li, server, listener)
    open_station(li, server, sid, "open")
    rows = {}
    for d in (o, li):
        wait_for(d, lambda d: len(texts(d)) == 3)
        wait_for(d, lambda d: d.execute_script(PLACE_JS, ".chat-msg")["wordsTrack"] == cafe["id"], "Café Nocturne's words never showed")
        row = f".chat-msg[data-message-id='{wait_text(d, 'first: ' + 'w' * 150)['id']}']"
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", find(d, row))
        rows[d] = (row, d.execute_script(PLACE_JS, row))
        place = rows[d][1]
        assert place["wordsShown"] and place["wordsTop"] < 0, f"the words should begin above the window: {place}"

    server.skip(sid, owner.token, timeline["current"]["id"])
    for d in (o, li):
        row, before = rows[d]
        after = wait_for(d, lambda d: (lambda p: not p["wordsShown"] and p)(d.execute_script(PLACE_JS, row)), "the words never went")
        assert abs(after["rowTop"] - before["rowTop"]) < 1, f"the message moved on screen: {before} → {after}"
    shot(li, "chat-after-the-words")
    button = find(o, f"{rows[o][0]} .chat-msg-menu")
    button.click()
    wait_for(o, lambda d: find(d, f"{rows[o][0]} .chat-msg-tools").is_displayed())
