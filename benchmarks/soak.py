"""Soak: the abuse of issue 15 for 60 s against the production server, while an honest table records a hand a second.

Run: ``.venv/bin/python benchmarks/soak.py [--seconds 60] [--database-url URL]``

gunicorn runs as ``make serve`` does (``tests/system/server.py``: 4 gevent
workers, rate limits on), on SQLite in a temporary directory unless
``--database-url`` names an empty database. The honest client creates its
session first, then records one hand a second on one keep-alive connection
and times each. Meanwhile, from the same address (127.0.0.1), in a process
of their own:

- a burst of session creations, back to back (rate limited: 429);
- imports of an exported session, back to back (rate limited: 429);
- 100 connections that send a hand's headers and then a body byte a second
  (408 after ``REQUEST_BODY_TIMEOUT``, then opened again);
- bodies over the size limit (413), JSON nested 1,000 deep, headers gunicorn
  refuses, and URIs over its limit (414), each back to back.

Printed: the honest client's p50/p99/max per 10-s window and over the run
(target: p99 under 200 ms throughout, every hand 201), what the abusers
got (status counts), and how much the database grew (target: under 50 MB).
"""
from __future__ import annotations

import argparse
import collections
import http.client
import json
import multiprocessing
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text  # noqa: E402

from api.http.db import make_engine  # noqa: E402
from benchmarks.clients import call  # noqa: E402
from tests.api.sessions.tables import discard, session_body  # noqa: E402
from tests.system.server import ProductionServer  # noqa: E402

SLOW_CONNECTIONS = 100
WINDOW_S = 10
P99_TARGET_MS = 200
GROWTH_TARGET_MB = 50
OVERSIZED = b'{"name": "' + b"x" * (300 * 1024) + b'"}'
DEEP = b"[" * 1000 + b"]" * 1000


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--database-url", help="an empty database (default: SQLite in a temporary directory)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        url = args.database_url or f"sqlite:///{directory}/soak.sqlite"
        server = ProductionServer(url, Path(directory) / "gunicorn.log").start()
        try:
            soak(server, url, args.seconds)
        finally:
            server.stop()


def soak(server: ProductionServer, url: str, seconds: float) -> None:
    honest = session_of(server)
    abuser = session_of(server)
    status, document = server.call("GET", f"/api/sessions/{abuser['id']}/export", headers=auth(abuser))
    assert status == 200, document
    size_before = database_size(url)
    stop_at = time.time() + seconds
    counts = multiprocessing.Manager().dict()
    abuse = multiprocessing.Process(target=run_abusers, args=(server.port, abuser, document, stop_at, counts))
    abuse.start()
    latencies = record_a_hand_a_second(server, honest, stop_at)
    abuse.join()
    report(latencies, dict(counts), database_size(url) - size_before, url)


def session_of(server) -> dict:
    status, created = server.call("POST", "/api/sessions", session_body())
    assert status == 201, created
    return created


def auth(session: dict) -> dict:
    return {"Authorization": f"Bearer {session['token']}"}


def record_a_hand_a_second(server, session: dict, stop_at: float) -> list[tuple[float, float, int]]:
    """(seconds since start, latency in ms, status) of each hand."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    started = time.time()
    latencies = []
    body = json.dumps(discard("Ben", "Cat", 1))
    headers = {"Content-Type": "application/json", **auth(session)}
    while time.time() < stop_at:
        tick = time.perf_counter()
        connection.request("POST", f"/api/sessions/{session['id']}/hands", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        latencies.append((time.time() - started, (time.perf_counter() - tick) * 1000, response.status))
        time.sleep(max(0.0, 1 - (time.perf_counter() - tick)))
    connection.close()
    return latencies


def run_abusers(port: int, abuser: dict, document: dict, stop_at: float, counts) -> None:
    tally = collections.Counter()
    lock = threading.Lock()

    def count(what: str, outcome) -> None:
        with lock:
            tally[f"{what}: {outcome}"] += 1

    hands = f"/api/sessions/{abuser['id']}/hands"
    loops = [
        lambda: count("create session", call(port, "POST", "/api/sessions", session_body(), timeout=30)),
        lambda: count("import", call(port, "POST", "/api/sessions/import", document, timeout=30)),
        lambda: count("oversized body", call(port, "POST", hands, OVERSIZED, auth(abuser), timeout=30)),
        lambda: count("JSON 1,000 deep", call(port, "POST", hands, DEEP, auth(abuser), timeout=30)),
        lambda: count("bad header", raw(port, b"GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n")),
        lambda: count("long URI", raw(port, b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")),
    ]
    threads = [threading.Thread(target=repeat, args=(loop, stop_at)) for loop in loops]
    threads.append(threading.Thread(target=slow_bodies, args=(port, hands, abuser, stop_at, count)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts.update(tally)


def repeat(loop, stop_at: float) -> None:
    while time.time() < stop_at:
        loop()


def raw(port: int, request: bytes):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(request)
            return client.recv(64).split(b" ")[1].decode()
    except (OSError, IndexError) as error:
        return type(error).__name__


def slow_bodies(port: int, path: str, abuser: dict, stop_at: float, count) -> None:
    """Keep SLOW_CONNECTIONS connections trickling a body, one byte a second each; open a new one as one ends."""
    head = (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
            f"Authorization: Bearer {abuser['token']}\r\n\r\n{{").encode()

    def open_one():
        client = socket.create_connection(("127.0.0.1", port), timeout=1)
        client.sendall(head)
        client.setblocking(False)
        return client

    connections = [open_one() for _ in range(SLOW_CONNECTIONS)]
    while time.time() < stop_at:
        for index, client in enumerate(connections):
            try:
                client.send(b" ")
                answer = client.recv(64)
                count("slow body", answer.split(b" ")[1].decode() if answer else "closed")
            except BlockingIOError:
                continue
            except (OSError, IndexError):
                count("slow body", "closed")
            client.close()
            connections[index] = open_one()
        time.sleep(1)
    for client in connections:
        client.close()


def database_size(url: str) -> int:
    """Bytes on disk: a SQLite file with its WAL, or PostgreSQL's ``pg_database_size``."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        return sum(os.path.getsize(name) for name in (path, path + "-wal") if os.path.exists(name))
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(text("SELECT pg_database_size(current_database())")).scalar()
    finally:
        engine.dispose()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(latencies: list[tuple[float, float, int]], counts: dict, growth: int, url: str) -> None:
    print(f"database {url.split(':')[0]}; honest client: {len(latencies)} hands, one a second")
    windows = collections.defaultdict(list)
    for at, latency, _status in latencies:
        windows[int(at // WINDOW_S)].append(latency)
    for window, values in sorted(windows.items()):
        print(f"  {window * WINDOW_S:3d}-{(window + 1) * WINDOW_S:3d} s: p50 {percentile(values, 0.5):6.1f} ms  "
              f"p99 {percentile(values, 0.99):6.1f} ms  max {max(values):6.1f} ms")
    every = [latency for _, latency, _ in latencies]
    statuses = collections.Counter(status for _, _, status in latencies)
    worst_p99 = max(percentile(values, 0.99) for values in windows.values())
    print(f"  whole run: p50 {percentile(every, 0.5):.1f} ms  p99 {percentile(every, 0.99):.1f} ms  "
          f"statuses {dict(statuses)}")
    print(f"  p99 under {P99_TARGET_MS} ms in every window and every hand 201: "
          + ("met" if worst_p99 < P99_TARGET_MS and set(statuses) == {201} else "NOT MET"))
    print("abusers (what they got, how many times):")
    for outcome, number in sorted(counts.items()):
        print(f"  {outcome:40s} {number}")
    print(f"database grew by {growth / 1e6:.2f} MB (target under {GROWTH_TARGET_MB} MB: "
          + ("met)" if growth < GROWTH_TARGET_MB * 1e6 else "NOT MET)"))


if __name__ == "__main__":
    main()
