"""The web app's hardening, seen from a real browser (issue 10, item 11).

- The app runs whole under its strict Content-Security-Policy: no screen
  breaks a rule (a violation would be a feature that quietly doesn't work).
- Another site can neither frame the app (clickjacking) nor sign the browser
  in with a cross-site form (login CSRF: a `text/plain` form body used to be
  taken as JSON).
- Odd paths are refused, not served as HTML or redirected off the host.

The other site is a small HTTP server on another port: another origin to the
browser, as an attacker's page would be.
"""

from __future__ import annotations

import html
import http.server
import json
import threading
from urllib.parse import urlparse

from accounts_api import log_in_browser, session_person, signup
from conftest import PHONE
from helpers import find, wait_for

# Collects every CSP violation the page reports, from before its first
# script runs (DevTools injects this; the page's own policy doesn't apply).
COLLECT_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`), true);
"""


class OtherSite:
    """Pages served from another origin (127.0.0.1 on a port of its own)."""

    def __init__(self, pages: dict[str, str]):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                page = pages.get(self.path)
                body = (page or "not here").encode()
                self.send_response(200 if page else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def page_text(d) -> str:
    """A JSON answer's text as Chromium shows it (in a <pre>, beside its
    pretty-print switch)."""
    return d.execute_script("return (document.querySelector('pre') || document.body).textContent")


def route_is(d, kind: str) -> bool:
    return d.execute_script("return document.body.dataset.route") == kind


def test_every_screen_runs_under_the_strict_policy(demo_server, browser):
    d = browser(PHONE)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COLLECT_VIOLATIONS})
    owner = signup(demo_server, display_name="Policy Owner")
    log_in_browser(d, demo_server, owner)

    # The headers that make the policy, on the page and on the API.
    headers = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([fetch('/'), fetch('/api/auth/me')]).then(([page, me]) => done({"
        "  csp: page.headers.get('content-security-policy'), sniff: page.headers.get('x-content-type-options'),"
        "  referrer: page.headers.get('referrer-policy'), me: me.headers.get('cache-control')}), (e) => done(String(e)));"
    )
    assert "script-src 'self'" in headers["csp"] and "frame-ancestors 'none'" in headers["csp"], headers
    assert headers["sniff"] == "nosniff" and headers["referrer"] == "no-referrer", headers
    assert "no-store" in (headers["me"] or ""), "the answer that carries the CSRF token is never cached"

    # Every screen a signed-in person reaches, the station playing too.
    station = owner.station_id
    for path, kind in [("#/", "dial"), (f"#/station/{station}", "station"), ("#/library", "library"),
                       ("#/people", "people"), (f"#/station/{station}/settings", "settings"),
                       (f"#/station/{station}/schedule", "schedule"), (f"#/station/{station}/history", "history"),
                       ("#/account", "account")]:
        d.execute_script("location.hash = arguments[0]", path)
        wait_for(d, lambda d: route_is(d, kind), f"{path} never showed")
        wait_for(d, lambda d: d.execute_script("return !!document.querySelector('main h1, main h2')"))

    # A control: a style attribute is against the policy, so the collector
    # must see it. Violations are reported in order, so once it is in, any
    # made by the screens above are in too.
    d.execute_script("const probe = document.createElement('div');"
                     "probe.setAttribute('style', 'color: red'); document.body.append(probe);")
    wait_for(d, lambda d: any(v.startswith("style-src") for v in d.execute_script("return window.__violations")))
    violations = d.execute_script("return window.__violations")
    assert violations == ["style-src-attr inline"], violations


def test_another_site_can_neither_frame_the_app_nor_sign_the_browser_in(demo_server, browser):
    mallory = signup(demo_server, display_name="Mallory")
    base = demo_server.base
    # A cross-site form can't send JSON, but `text/plain` with a field named
    # like JSON's start and a value that closes it comes close enough: the
    # body is {"handle":"…","password":"…","x":"="}.
    fields = json.dumps({"handle": mallory.handle, "password": mallory.password})[:-1] + ',"x":"'
    site = OtherSite({
        "/frame.html": f'<!doctype html><title>cute cats</title><iframe id="f" src="{base}/#/"></iframe>',
        "/login.html": (
            '<!doctype html><title>win a prize</title>'
            f'<form id="f" method="post" enctype="text/plain" action="{base}/api/auth/login">'
            f'<input type="hidden" name="{html.escape(fields)}" value=\'"}}\'></form>'
            '<script>document.getElementById("f").submit()</script>'
        ),
    })
    try:
        d = browser(PHONE)

        # Framed, the app never loads: the frame holds Chromium's error page.
        d.get(site.base + "/frame.html")
        d.switch_to.frame(find(d, "#f"))
        wait_for(d, lambda d: d.execute_script("return document.readyState") == "complete"
                 and d.execute_script("return location.href") != "about:blank")
        framed = d.execute_script("return location.href")
        assert not framed.startswith(base), f"the app loaded in another site's frame: {framed}"
        assert not d.execute_script("return document.getElementById('account-link')"), "the app ran in the frame"
        d.switch_to.default_content()

        # The form posts across sites: refused as not JSON, so no session.
        d.get(site.base + "/login.html")
        wait_for(d, lambda d: d.current_url.startswith(base + "/api/auth/login"))
        answer = json.loads(page_text(d))
        assert answer["error"]["code"] == "unsupported_media_type", answer
        d.get(base + "/#/")
        wait_for(d, lambda d: d.execute_script("return document.getElementById('account-link')?.dataset.state"))
        assert (session_person(d) or {}).get("id") != mallory.id, "another site signed this browser in"
        assert d.execute_script("return document.getElementById('account-link').dataset.state") != "user"
    finally:
        site.close()


def test_odd_paths_are_refused_not_served_or_redirected(demo_server, browser):
    d = browser(PHONE)
    host = urlparse(demo_server.base).netloc
    # `/sw.js%00.html` used to be served as sw.js, typed as HTML; `//js`
    # redirected to `//js/`, which a browser reads as the host "js".
    for path in ("/sw.js%00.html", "//js"):
        d.get(demo_server.base + path)
        wait_for(d, lambda d: d.execute_script("return document.readyState") == "complete")
        assert urlparse(d.current_url).netloc == host, f"{path} led off the server: {d.current_url}"
        assert d.execute_script("return document.contentType") == "application/json", path
        answer = json.loads(page_text(d))
        assert answer["error"]["code"] and answer["error"]["message"], answer
