"""Crash safety (issue 7): SIGKILL the production server in the middle of a stream of posts.

Four clients post hands (two to a taiwan session, two to a shanghai one),
each with its own ``Idempotency-Key``, until the server dies under them: the
gunicorn master and every worker get SIGKILL at a random moment, as in a
power cut. The server is started again on the same database, and:

- every acknowledged hand is there with its number, body and payments; the
  hands are numbered 1, 2, 3, … with no gap; totals and state equal a replay;
- no hand is half-written: in the database every entry has its result and
  its stored response, the session's counters match its rows, and SQLite's
  ``PRAGMA integrity_check`` says ok;
- a request in flight when the server died is in doubt: sent again with its
  key, it is recorded exactly once, whether or not it had committed.

Two rounds, on each database.
"""
import http.client
import random
import threading
import time

import pytest
from sqlalchemy import select, text

from api.http.db import make_engine
from ledger.store import HAND, EntryRow, SessionRow
from tests.system.evening import (
    Table,
    assert_acknowledged_kept,
    assert_consistent,
    assert_replays,
    create_table,
    random_hand,
    stored_hands,
)
from tests.system.server import ProductionServer

ROUNDS = 2
POSTERS_PER_TABLE = 2


class Poster:
    """One client posting until its connection breaks; keeps the request that was in flight, if any."""

    def __init__(self, table: Table, name: str, seed: int):
        self.table, self.name, self.rng = table, name, random.Random(seed)
        self.sequence = 0
        self.in_doubt: tuple[dict, dict] | None = None
        self.refused: list = []

    def post_until_broken(self, server) -> None:
        connection = server.connect()
        try:
            while True:
                body = random_hand(self.rng, self.table.ruleset)
                headers = self.table.headers(**{"Idempotency-Key": f"{self.name}-{self.sequence}"})
                self.sequence += 1
                self.in_doubt = (body, headers)
                status, hand = connection.call("POST", f"{self.table.path}/hands", body, headers)
                self.in_doubt = None
                if status != 201:
                    self.refused.append((status, hand))
                    return
                self.table.acknowledge(body, hand)
        except (OSError, http.client.HTTPException):  # reset, refused, closed or cut short: the server died
            return
        finally:
            connection.close()

    def resend_in_doubt(self, server) -> None:
        """Send the request that was in flight again, with its key: it must end up recorded once."""
        if self.in_doubt is None:
            return
        body, headers = self.in_doubt
        status, hand = server.call("POST", f"{self.table.path}/hands", body, headers)
        assert status == 201, hand
        assert hand["body"] == body
        self.table.acknowledge(body, hand)
        self.in_doubt = None


def assert_rows_whole(database_url: str, table: Table) -> None:
    """In the database: the session's counters match its rows and every entry is complete."""
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            session = connection.execute(select(SessionRow).where(SessionRow.id == table.id)).one()
            entries = connection.execute(select(EntryRow).where(EntryRow.session_id == table.id)).all()
            assert session.entry_count == len(entries)
            assert session.hand_count == sum(entry.kind == HAND for entry in entries)
            for entry in entries:
                assert set(entry.result) >= {"payments", "before", "after"}, entry.number
                assert sum(entry.result["payments"].values()) == 0, entry.number
                assert entry.response is not None and entry.response["number"] == entry.number, entry.number
            if engine.dialect.name == "sqlite":
                assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    finally:
        engine.dispose()


def assert_survived(server, database_url: str, table: Table) -> None:
    hands = stored_hands(server, table)
    assert_acknowledged_kept(table, hands)
    assert_replays(server, table, hands)
    assert_rows_whole(database_url, table)


def run_until_killed(server, posters: list[Poster], seconds: float) -> None:
    threads = [threading.Thread(target=poster.post_until_broken, args=(server,)) for poster in posters]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    server.kill()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)


@pytest.fixture
def server(database_url, tmp_path):
    # Posters write back to back, past the per-link write limit (issue 27): durability is what is tested here.
    running = ProductionServer(database_url, tmp_path / "gunicorn.log",
                               env={"TAIZHANG_RATE_LIMIT_WRITE": "1000000 per minute"})
    yield running
    running.kill()


def test_sigkill_mid_stream_keeps_every_acknowledged_hand_and_no_half_written_one(server, database_url):
    rng = random.Random(7)
    server.start()
    tables = [create_table(server, ruleset) for ruleset in ("taiwan", "shanghai")]
    posters = [Poster(table, f"{table.ruleset}-{i}", seed=10 * n + i)
               for n, table in enumerate(tables) for i in range(POSTERS_PER_TABLE)]
    in_doubt = 0
    for _ in range(ROUNDS):
        run_until_killed(server, posters, rng.uniform(1.0, 2.5))
        assert [poster.refused for poster in posters] == [[]] * len(posters)
        in_doubt += sum(poster.in_doubt is not None for poster in posters)
        server.start()
        for table in tables:
            assert_survived(server, database_url, table)
        for poster in posters:
            poster.resend_in_doubt(server)
        for table in tables:
            assert_consistent(server, table)
    assert in_doubt > 0  # the kills did land in the middle of requests
    assert all(len(table.acknowledged) > 20 for table in tables)
