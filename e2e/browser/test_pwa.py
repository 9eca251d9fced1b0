"""Installable: a manifest Chromium accepts, PNG icons, and a service
worker that caches the app shell but never audio or the API."""

import struct

from conftest import DESKTOP
from helpers import wait_for, wait_playing


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_installable_pwa_caches_only_the_shell(demo_server, browser, shot):
    import urllib.request

    manifest = demo_server.get("/manifest.webmanifest")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        with urllib.request.urlopen(demo_server.base + icon["src"]) as response:
            body = response.read()
            assert response.status == 200
        if icon["type"] == "image/png":
            w, h = png_size(body)
            assert f"{w}x{h}" == icon["sizes"]
            sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes

    station = demo_server.signup(display_name="PWA Test").station
    d = browser(DESKTOP)
    d.get(demo_server.base + "/")
    registered = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then(r => done(r.active ? r.active.scriptURL : null), () => done(null));"
    )
    assert registered and registered.endswith("/sw.js")
    app_manifest = d.execute_cdp_cmd("Page.getAppManifest", {})
    assert not app_manifest.get("errors"), app_manifest.get("errors")

    # Play a station so audio and API requests go through the page.
    d.refresh()
    wait_for(d, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    d.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_playing(d)
    d.get(f"{demo_server.base}/#/library")
    wait_for(d, lambda d: d.execute_script("return document.querySelectorAll('.artist-row').length") > 0)
    cached = d.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        (async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
          }
          return urls;
        })().then(done, (e) => done(['error: ' + e]));
        """
    )
    assert "/index.html" in cached and "/js/app.js" in cached and "/styles.css" in cached
    assert not [u for u in cached if u.startswith("/api/") or u == "/health"], cached
    installability = d.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert not installability.get("installabilityErrors"), installability
    shot(d, "library")


def _static_imports(web, entry):
    """The modules `entry` loads before it runs (static imports, transitively)."""
    import os
    import re

    seen, queue = [], [entry]
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.append(path)
        source = (web / path.lstrip("/")).read_text()
        for spec in re.findall(r'^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|^\s*import\s+"([^"]+)"', source, re.M):
            spec = spec[0] or spec[1]
            if spec.startswith("."):
                queue.append(os.path.normpath(os.path.join(os.path.dirname(path), spec)))
    return seen


def test_every_module_is_preloaded_and_kept_offline():
    """index.html preloads every module app.js imports (so they load at
    once, not import by import) and starts early-station.js on its own; the
    service worker keeps each of them. A module added without its line in
    both fails here."""
    import re

    from conftest import WEB

    graph = set(_static_imports(WEB, "/js/app.js"))
    html = (WEB / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)"', html))
    assert preloaded == graph - {"/js/app.js"}, (sorted(graph - preloaded - {"/js/app.js"}), sorted(preloaded - graph))
    assert '<script type="module" async src="/js/live/early-station.js"></script>' in html
    assert "/js/live/early-station.js" in graph
    shell = set(re.findall(r'"(/js/[^"]+)"', (WEB / "sw.js").read_text()))
    assert graph <= shell, sorted(graph - shell)
