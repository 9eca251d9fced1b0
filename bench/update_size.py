"""How big a station's `update` message is, whole (protocol version 1) and
with the tracks every listener holds named by id (version 2), as a DJ queues
40 songs one after another.

    python3 bench/update_size.py [path/to/wavelength]

Prints, per version, the size of updates 1, 10 and 40 and their mean.
"""
import json
import os
import sys
import threading
import time
import urllib.request

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(harness.ROOT, ".build-release/release/wavelength")
srv = harness.Server(binary)
try:
    socks = {}
    sizes = {1: [], 2: []}
    for v in (1, 2):
        url = srv.url.replace('http', 'ws') + f"/api/stations/{srv.station}/live?v={v}"
        ws = websocket.create_connection(url, timeout=10)
        def reader(ws=ws, v=v):
            while True:
                try: m = ws.recv()
                except Exception: return
                if '"type":"update"' in m: sizes[v].append(len(m.encode()))
        threading.Thread(target=reader, daemon=True).start()
    time.sleep(1)
    tracks = json.load(urllib.request.urlopen(srv.url + "/api/library/tracks"))
    for i in range(40):
        body = json.dumps({"id": f"p-{i}", "command": {"op": "queueNext", "trackID": tracks[i % len(tracks)]['id']}}).encode()
        req = urllib.request.Request(srv.url + f"/api/stations/{srv.station}/commands", data=body, method="POST",
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + srv.key})
        urllib.request.urlopen(req).read()
        time.sleep(0.05)
    time.sleep(1)
    for v in (1, 2):
        s = sizes[v]
        print(f"v{v}: {len(s)} updates; update 1: {s[0]} B, 10: {s[9]} B, 40: {s[39]} B; mean {sum(s)/len(s):.0f} B")
finally:
    srv.stop()
