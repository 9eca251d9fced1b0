#!/usr/bin/env python3
"""The kernel's floor for one update to many listeners on this machine: N
loopback TCP connections, and one small message sent to each, from P
processes at once (one per core), with nothing else to do. What the
server's fan-out (wavelength-bench listeners) can't go below here, since on
loopback each send also runs the receiving side's TCP work on these cores.

    python3 bench/socket_floor.py [--connections 10000] [--processes 2] [--bytes 1024] [--rounds 5]

Prints each process's time per round, and the same loop with no send.
"""
import argparse
import multiprocessing as mp
import socket
import time


def worker(index, count, size, rounds, barrier, results):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4096)
    port = listener.getsockname()[1]
    clients, servers = [], []
    for _ in range(count):
        client = socket.socket()
        client.connect(("127.0.0.1", port))
        server, _ = listener.accept()
        server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        clients.append(client)
        servers.append(server)
    payload = b"x" * size
    times = []
    for _ in range(rounds):
        barrier.wait()
        started = time.perf_counter()
        for server in servers:
            server.send(payload)
        times.append((time.perf_counter() - started) * 1000)
        barrier.wait()
        for client in clients:
            client.recv(65536)
    started = time.perf_counter()
    for server in servers:
        len(payload)
    results.put((index, times, (time.perf_counter() - started) * 1000))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=10000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--bytes", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    barrier, results = mp.Barrier(args.processes), mp.Queue()
    share = args.connections // args.processes
    workers = [mp.Process(target=worker, args=(i, share, args.bytes, args.rounds, barrier, results)) for i in range(args.processes)]
    for w in workers:
        w.start()
    found = sorted(results.get() for _ in workers)
    for w in workers:
        w.join()
    print(f"{args.connections} loopback connections, {args.processes} processes, {args.bytes} B each:")
    for index, times, empty in found:
        print(f"  process {index}: {share} sends, ms per round: " + " ".join(f"{t:.1f}" for t in times) + f" (the loop alone {empty:.2f} ms)")


if __name__ == "__main__":
    main()
