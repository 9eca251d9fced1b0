"""The schedule's pure JS modules unit-tested in headless Chromium: when a
show airs in words ("Every other Tuesday, 22:00–00:00 (America/Los Angeles
time)"), the weeks the schedule screen shows (Monday to Monday, across a
clock change), an episode's original date in its show's zone, the
ShowSpec sent back after "Cancel episode" or "Move…", the editor's values,
and when reminders go off.

The JS tests are in tests/browser/schedule_js (they use the shared runner
and assertions of tests/js/assert.js); this file serves them from a
test-only static server with the app's own modules at /js/, in a page whose
time zone is set to Europe/Oslo. No Wavelength server is needed.

test_schedule_js_unit_tests_pass fails listing every failing JS test;
test_schedule_js_unit_tests_catch_a_broken_module breaks one module at a
time in a copy of web/js and expects the named JS test to fail.
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

UNITS = Path(__file__).resolve().parent / "schedule_js"
TESTS_JS = REPO / "tests" / "js"
ZONE = "Europe/Oslo"


class _Handler(SimpleHTTPRequestHandler):
    """/js/ → the web app's modules, /units/ → schedule_js, /tests/ →
    tests/js (the shared runner); nothing else."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def __init__(self, *args, roots: dict[str, Path], **kwargs):
        self.roots = roots
        super().__init__(*args, directory=str(UNITS), **kwargs)

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        for prefix, root in self.roots.items():
            if path.startswith(prefix):
                target = (root / path[len(prefix):]).resolve()
                if target.is_relative_to(root.resolve()):
                    return str(target)
        return str(UNITS / "__none__")

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):  # quiet: pytest shows failures
        pass


class _StaticServer:
    def __init__(self, js_root: Path):
        roots = {"/js/": js_root, "/units/": UNITS, "/tests/": TESTS_JS}
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, roots=roots))
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "_StaticServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def run_schedule_js_tests(driver, js_root: Path) -> list[dict]:
    """Every schedule JS test's {name, ok, error}, run in Europe/Oslo."""
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ZONE})
    with _StaticServer(js_root) as server:
        driver.get(f"{server.base}/units/runner.html")
        done = lambda d: d.execute_script("return (window.__jsTests && window.__jsTests.done) || (window.__jsErrors || []).length > 0")
        wait_for(driver, done, "the schedule JS test runner never finished")
        state = driver.execute_script("return {tests: window.__jsTests || null, errors: window.__jsErrors || []}")
    if state["tests"] is None:
        pytest.fail("the schedule JS test runner failed to start:\n" + "\n".join(state["errors"]))
    return state["tests"]["results"]


def test_schedule_js_unit_tests_pass(browser):
    results = run_schedule_js_tests(browser(), WEB / "js")
    failed = [r for r in results if not r["ok"]]
    assert len(results) >= 25, f"only {len(results)} schedule JS tests ran"
    assert not failed, f"{len(failed)} of {len(results)} schedule JS tests failed:\n" + "\n\n".join(
        f"✗ {r['name']}\n{r['error']}" for r in failed)


# (module, the correct code, a mistake, the test that must catch it)
MUTATIONS = [
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
]


@pytest.mark.parametrize("module,good,bad,catcher", MUTATIONS, ids=[f"{m[0].rsplit('/', 1)[-1]}-{i}" for i, m in enumerate(MUTATIONS)])
def test_schedule_js_unit_tests_catch_a_broken_module(browser, tmp_path, module, good, bad, catcher):
    js_root = tmp_path / "js"
    shutil.copytree(WEB / "js", js_root)
    source = (js_root / module).read_text()
    assert source.count(good) == 1, f"{module} no longer has {good!r}: update this mutation"
    (js_root / module).write_text(source.replace(good, bad))
    results = run_schedule_js_tests(browser(), js_root)
    by_name = {r["name"]: r for r in results}
    assert catcher in by_name, f"no JS test named {catcher!r}"
    assert not by_name[catcher]["ok"], f"{catcher!r} passed with {module} broken ({good!r} → {bad!r})"
