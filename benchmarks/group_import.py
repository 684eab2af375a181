"""How long a group document of a given size takes to import, and what an honest table records meanwhile.

Run: ``.venv/bin/python benchmarks/group_import.py [--megabytes 2,4,8] [--database sqlite|postgresql|both]``

gunicorn runs as ``make serve`` does (``tests/system/server.py``), with
``MAX_GROUP_IMPORT_BYTES`` lifted, on SQLite in a temporary directory and on
PostgreSQL (the throw-away durable server of ``tests/pg.py``). A group
document of about ``--megabytes`` MB (four members, evenings of 200 hands,
≈ 47 KB each) is sent to ``POST /api/groups/import`` while an honest table
records a hand every 0.2 s on a keep-alive connection. Printed per database
and size: the import's status and seconds, and the honest hands' count, p50,
max and non-2xx.

What it decided (``MAX_GROUP_IMPORT_BYTES``, ``api.http.limits``): the limit
is a size both databases import well inside gunicorn's 30 s timeout and a
proxy's 60 s, on a loaded machine. Figures: ``benchmarks/README.md``.
"""
from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import pg  # noqa: E402
from tests.api.sessions.tables import DRAW, discard, self_draw, session_body  # noqa: E402
from tests.system.server import ProductionServer  # noqa: E402

HANDS = [discard("Ben", "Cat", 2), self_draw("Amy", 1), DRAW, discard("Dan", "Amy", 3)]
EVENING_HANDS = 200


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", default="2,4,8", help="comma-separated sizes of the documents")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args(argv)
    sizes = [float(size) for size in args.megabytes.split(",")]
    for database in (["sqlite", "postgresql"] if args.database == "both" else [args.database]):
        postgres = pg.LocalServer(durable=True) if database == "postgresql" else None
        try:
            for size in sizes:
                with tempfile.TemporaryDirectory() as directory:
                    url = (postgres.database_url(postgres.create_database()) if postgres
                           else f"sqlite:///{directory}/import.sqlite")
                    server = ProductionServer(url, Path(directory) / "gunicorn.log", env={
                        "TAIZHANG_MAX_GROUP_IMPORT_BYTES": str(1 << 30)}).start()
                    try:
                        measure(server, database, size)
                    finally:
                        server.stop()
        finally:
            if postgres:
                postgres.stop()


def group_document(server: ProductionServer, megabytes: float) -> bytes:
    """A group document of about ``megabytes`` MB: one evening of 200 hands, exported, as many times as it takes."""
    status, session = server.call("POST", "/api/sessions", session_body())
    headers = {"Authorization": f"Bearer {session['token']}"}
    for index in range(EVENING_HANDS):
        status, _ = server.call("POST", f"/api/sessions/{session['id']}/hands", HANDS[index % 4], headers)
        assert status == 201
    status, export = server.call("GET", f"/api/sessions/{session['id']}/export", headers=headers)
    evening = len(json.dumps(export))
    members = [{"id": f"m{index}", "name": name} for index, name in enumerate(["Amy", "Ben", "Cat", "Dan"])]
    players = {"Amy": "m0", "Ben": "m1", "Cat": "m2", "Dan": "m3"}
    return json.dumps({"format": "taizhang-group", "version": 1, "name": "Big", "members": members, "payments": [],
                       "seasons": [], "evenings": [{"id": f"e{index}", "players": players, "export": export}
                                                   for index in range(max(1, int(megabytes * 2**20 / evening)))]
                       }).encode()


def measure(server: ProductionServer, database: str, megabytes: float) -> None:
    document = group_document(server, megabytes)
    status, honest = server.call("POST", "/api/sessions", session_body())
    outcome = {}

    def send() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        started = time.perf_counter()
        connection.request("POST", "/api/groups/import", body=document, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        outcome.update(status=response.status, seconds=time.perf_counter() - started)

    importer = threading.Thread(target=send)
    importer.start()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {honest['token']}"}
    latencies, number = [], 0
    while importer.is_alive():
        started = time.perf_counter()
        connection.request("POST", f"/api/sessions/{honest['id']}/hands", body=json.dumps(HANDS[number % 4]),
                           headers=headers)
        response = connection.getresponse()
        response.read()
        latencies.append(((time.perf_counter() - started) * 1000, response.status))
        number += 1
        time.sleep(0.2)
    importer.join()
    times = sorted(latency for latency, _ in latencies) or [0.0]
    print(f"{database:10s} {len(document) / 2**20:5.2f} MB  import {outcome['status']} in {outcome['seconds']:5.1f} s"
          f"   honest: {len(latencies):3d} hands  p50 {times[len(times) // 2]:6.1f} ms  max {times[-1]:7.1f} ms  "
          f"non-2xx {sum(not 200 <= status < 300 for _, status in latencies)}", flush=True)


if __name__ == "__main__":
    main()
