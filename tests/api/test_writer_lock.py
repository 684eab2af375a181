"""The SQLite writer lock (``<database>.writer-lock``, api.db) is freed only once SQLite has ended the
transaction: freed before, the next writer's BEGIN IMMEDIATE found the database locked and slept in
SQLite's busy handler (1 ms, then 2, 5 …) instead of starting at once.
"""
import fcntl
import sqlite3

import pytest

from api import db
from tests.api.tables import DRAW, Table, discard, self_draw

sqlite_only = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@sqlite_only
def test_whenever_the_writer_lock_is_freed_the_next_writer_can_begin_at_once(app, client, monkeypatch):
    """At every release of the writer lock (after commits, rollbacks, a refused hand) SQLite is free too."""
    table = Table(client)
    database = db.get_engine(app).url.database
    free_when_released = []
    flock = fcntl.flock

    def probing_flock(lock, operation):
        if operation == fcntl.LOCK_UN:
            probe = sqlite3.connect(database, timeout=0, isolation_level=None)
            try:
                probe.execute("BEGIN IMMEDIATE")
                probe.execute("ROLLBACK")
                free_when_released.append(True)
            except sqlite3.OperationalError:  # database is locked
                free_when_released.append(False)
            finally:
                probe.close()
        flock(lock, operation)

    monkeypatch.setattr(fcntl, "flock", probing_flock)
    table.hands_ok(DRAW, self_draw("Amy", 1))  # commits
    table.totals()  # a read: rolled back
    assert table.hand(discard("Amy", "Amy")).status_code == 422  # refused: nothing written
    assert len(free_when_released) >= 4
    assert all(free_when_released), free_when_released
