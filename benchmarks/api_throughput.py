"""API throughput under the production server: POST /api/score, against a bare Flask endpoint.

Run: ``.venv/bin/python benchmarks/api_throughput.py [--seconds 5] [--rounds 3] [--clients 4]``

Two gunicorn servers run side by side on loopback with the same settings as
``make serve`` (4 gevent processes): the app (on SQLite in a temporary
directory; scoring reads no database) and a bare Flask
app whose only endpoint returns a constant JSON body (the reference). The same
client — ``--clients`` processes, each with one keep-alive connection, sending
requests back to back for ``--seconds`` — measures, in each round:

- ``bare``: ``GET /bare`` on the reference server;
- ``score``: ``POST /api/score`` of random legal 17-tile Taiwanese hands
  (``benchmarks/score_throughput.py``), scored in full.

Printed: each one's requests/second (median of the rounds), its ratio to
the bare rate measured in the same round (median of the per-round ratios),
and its median and 99th-percentile latency over every request of every round.
Recording hands and reading sessions are measured as a club uses them by
``benchmarks/club_night.py``; the ratio targets this script had (score ≥ 0.5,
record a hand ≥ 0.3 of the bare rate) are retired.
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from benchmarks.score_throughput import taiwan_request  # noqa: E402
from tests.system.server import WORKERS, Connection, ProductionServer  # noqa: E402

BODIES_PER_CLIENT = 500
BARE_BODY = {"status": "ok", "service": "taizhang"}


def bare_app() -> Flask:
    """The reference: a Flask app with one endpoint returning a constant JSON body."""
    app = Flask("bare")

    @app.get("/bare")
    def bare():
        return BARE_BODY

    return app


@dataclass(frozen=True)
class Load:
    """What one client sends: method, path, headers and the bodies it cycles through."""

    port: int
    method: str
    path: str
    headers: dict
    bodies: list


def run_client(load: Load, start_at: float, seconds: float) -> list[float]:
    """Send requests back to back from ``start_at`` for ``seconds``; the latency of each, in ms."""
    connection = Connection(load.port)
    latencies = []
    while time.time() < start_at:
        time.sleep(0.001)
    stop_at = start_at + seconds
    sent = 0
    try:
        while time.time() < stop_at:
            body = load.bodies[sent % len(load.bodies)] if load.bodies else None
            began = time.perf_counter()
            status, answer = connection.call(load.method, load.path, body, load.headers)
            latencies.append((time.perf_counter() - began) * 1000)
            if status not in (200, 201):
                raise RuntimeError(f"{load.method} {load.path}: {status} {answer}")
            sent += 1
    finally:
        connection.close()
    return latencies


def run_round(pool, loads: list[Load], seconds: float) -> tuple[float, list[float]]:
    """All clients at once; the requests per second and every latency."""
    start_at = time.time() + 0.5
    results = pool.starmap(run_client, [(load, start_at, seconds) for load in loads])
    latencies = [latency for client in results for latency in client]
    return len(latencies) / seconds, latencies


def score_loads(port: int, clients: int) -> list[Load]:
    rng = random.Random(1)
    return [Load(port, "POST", "/api/score", {}, [taiwan_request(rng) for _ in range(BODIES_PER_CLIENT)])
            for _ in range(clients)]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(rates: dict[str, list[float]], latencies: dict[str, list[float]]) -> None:
    bare = rates["bare"]
    for name, measured in rates.items():
        ratios = [ours / reference for ours, reference in zip(measured, bare)]
        print(f"{name:5} {statistics.median(measured):7.0f} req/s  ratio {statistics.median(ratios):4.2f} "
              f"(rounds {', '.join(f'{r:.2f}' for r in ratios)})  latency median "
              f"{statistics.median(latencies[name]):5.1f} ms, p99 {percentile(latencies[name], 0.99):6.1f} ms")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5, help="length of each measurement")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each measuring bare and score once")
    parser.add_argument("--clients", type=int, default=4, help="client processes, one connection each")
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn processes, both servers")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{directory}/throughput.sqlite"  # scoring reads no database; the app needs one to start
        # the benchmark sends thousands of scorings from one address: past the rate limit
        settings = {"workers": args.workers, "env": {"TAIZHANG_RATELIMIT_ENABLED": "false"}}
        app = ProductionServer(url, Path(directory) / "app.log", **settings)
        bare = ProductionServer(url, Path(directory) / "bare.log", app="benchmarks.api_throughput:bare_app()",
                                ready_path="/bare", **settings)
        app.start()
        bare.start()
        try:
            measure(app, bare, args)
        finally:
            app.stop()
            bare.stop()


def measure(app: ProductionServer, bare: ProductionServer, args) -> None:
    loads = {"bare": [Load(bare.port, "GET", "/bare", {}, [])] * args.clients,
             "score": score_loads(app.port, args.clients)}
    rates = {name: [] for name in loads}
    latencies = {name: [] for name in loads}
    print(f"gunicorn {app.workers} gevent workers; {args.clients} clients; "
          f"{args.rounds} rounds of {args.seconds:g} s each")
    with multiprocessing.get_context("fork").Pool(args.clients) as pool:
        run_round(pool, loads["bare"], 1)  # warm-up: connections, imports, caches
        run_round(pool, score_loads(app.port, args.clients), 1)
        for _ in range(args.rounds):
            for name, load in loads.items():
                rate, measured = run_round(pool, load, args.seconds)
                rates[name].append(rate)
                latencies[name] += measured
    report(rates, latencies)


if __name__ == "__main__":
    main()
