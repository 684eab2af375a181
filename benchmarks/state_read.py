"""The server's CPU for one read of an evening's state, in this process (no HTTP server, no client).

Run: ``.venv/bin/python benchmarks/state_read.py [--database sqlite|postgresql|both] [--reads 500] [--rounds 7]``

What the club night's phones do most (``GET /api/sessions/<id>`` every 3 s
each) costs the server CPU; on two cores shared with the client, that CPU is
what decides how many tables one server holds (``club_night.py``). This
measures it alone: an evening of 10 hands in a fresh database (SQLite in a
temporary directory, or a new database of the throw-away PostgreSQL of
``tests/pg.py``), read through Flask's test client ``--reads`` times per
round; printed, the best round's CPU time (``time.process_time``) per read.
PostgreSQL's own processes are not counted (the club night counts them).
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from api import create_app  # noqa: E402
from api.http import db
from tests import pg  # noqa: E402

EVENING = {"name": "Friday", "ruleset": "taiwan", "players": ["Amy", "Ben", "Cat", "Dan"],
           "stakes": {"base": 100, "per_tai": 20}}
HAND = {"winners": [{"player": "Amy", "tai": 2}], "by": "self_draw"}


def cpu_per_read(url: str, reads: int, rounds: int) -> float:
    """The best round's CPU milliseconds per state read, on a fresh database at ``url``."""
    app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False})
    try:
        client = app.test_client()
        created = client.post("/api/sessions", json=EVENING).get_json()
        path, headers = f"/api/sessions/{created['id']}", {"Authorization": f"Bearer {created['token']}"}
        for _ in range(10):
            assert client.post(f"{path}/hands", json=HAND, headers=headers).status_code == 201
        for _ in range(50):  # warm-up: statement caches, prepared statements
            client.get(path, headers=headers)
        best = float("inf")
        for _ in range(rounds):
            start = time.process_time()
            for _ in range(reads):
                client.get(path, headers=headers)
            best = min(best, (time.process_time() - start) / reads * 1000)
        return best
    finally:
        db.dispose(app)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--reads", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    if args.database in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as directory:
            url = f"sqlite:///{directory}/taizhang.sqlite"
            print(f"sqlite: {cpu_per_read(url, args.reads, args.rounds):.3f} ms of CPU a state read")
    if args.database in ("postgresql", "both"):
        server = pg.start_server()
        try:
            url = server.database_url(server.create_database())
            print(f"postgresql: {cpu_per_read(url, args.reads, args.rounds):.3f} ms of CPU a state read "
                  "(the server's Python; PostgreSQL's own processes not counted)")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
