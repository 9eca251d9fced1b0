#!/usr/bin/env python3
"""How long a normal login takes while one address floods the server with
signups: bcrypt (cost 12) runs one job per core, shared round-robin between
client addresses, so the login waits for at most one job per core, not for
the whole flood.

Both come through 127.0.0.1, named as different clients by X-Forwarded-For:
the server is started with --trusted-proxy 127.0.0.1, as behind a proxy.

    python3 bench/login_under_signups.py [--signups 80] [--logins 10]

Build with `swift build -c release` first; WAVELENGTH_BIN names the binary.
"""
import argparse
import concurrent.futures
import json
import os
import time
import urllib.error
import urllib.request

from harness import ROOT, Server, summary


def post(url, path, body, client):
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-For": client})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, (time.perf_counter() - start) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--signups", type=int, default=80)
    parser.add_argument("--logins", type=int, default=10)
    args = parser.parse_args()
    binary = os.environ.get("WAVELENGTH_BIN", os.path.join(ROOT, ".build/release/wavelength"))
    server = Server(binary, options=["--trusted-proxy", "127.0.0.1"])
    try:
        handle = f"regular{time.time_ns() % 10**9}"
        post(server.url, "/api/auth/signup",
             {"handle": handle, "displayName": "Regular", "password": "correct horse"}, "198.51.100.1")
        login = {"handle": handle, "password": "correct horse"}
        quiet = [post(server.url, "/api/auth/login", login, "198.51.100.1")[1] for _ in range(args.logins)]
        print(f"login, quiet server (ms):            {summary(quiet)}")

        def signup(n):
            body = {"handle": f"flood{n}x{time.time_ns() % 10**6}", "displayName": "Flood", "password": "flood password"}
            return post(server.url, "/api/auth/signup", body, "203.0.113.66")

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.signups) as pool:
            flood = [pool.submit(signup, n) for n in range(args.signups)]
            time.sleep(0.2)  # the flood is queued before the logins start
            during = [post(server.url, "/api/auth/login", login, "198.51.100.1")[1] for _ in range(args.logins)]
            outcomes = [f.result() for f in flood]
        print(f"login, during {args.signups} signups (ms):    {summary(during)}")
        statuses = {}
        for status, _ in outcomes:
            statuses[status] = statuses.get(status, 0) + 1
        print(f"the signups: {dict(sorted(statuses.items()))} (201 made, 429 busy or over the hourly limit)")
        print(f"signup latency (ms):                 {summary([ms for _, ms in outcomes])}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
