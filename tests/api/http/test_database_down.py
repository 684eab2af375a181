"""The database down or busy is 503 with Retry-After and a JSON message, logged in one line (issue 15, item 9).

PostgreSQL: a throw-away server of the test's own, stopped under the app.
SQLite: another connection holds the write lock past the busy timeout (5 s in production; 0.5 s here, the same
path: the test waited 5 s for nothing).
"""
import logging
import os
import shutil
import sqlite3

import pytest
from sqlalchemy import exc

from api import create_app
from api.http import db
from api.http.unavailable import is_unavailable
from tests import pg
from tests.api.sessions.tables import DRAW, Table

UNAVAILABLE = {"code": 503, "status": "Service Unavailable",
               "message": "The database is unavailable for the moment; nothing was changed. Try again in 5 s."}


def assert_unavailable(response):
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert response.get_json() == UNAVAILABLE


def assert_one_line_each(caplog, requests: list[str]):
    """One warning per request, naming it, and no traceback anywhere in the log."""
    assert [record.getMessage().split(": database unavailable")[0] for record in caplog.records
            if record.levelno >= logging.WARNING] == [f"503 {request}" for request in requests]
    assert not any(record.exc_info or record.exc_text for record in caplog.records)


@pytest.fixture
def stoppable_postgres():
    """A PostgreSQL server of the test's own, which it may stop (then only its files are left to delete)."""
    server = pg.LocalServer()
    yield server
    if os.path.exists(os.path.join(server.data, "postmaster.pid")):
        server.stop()
    shutil.rmtree(server.directory, ignore_errors=True)


@pytest.mark.postgresql  # a server of its own: not in `make check`, which runs on SQLite
def test_postgresql_stopped_is_503_with_one_log_line_per_request(stoppable_postgres, caplog):
    app = create_app({"TESTING": True, "DATABASE_URL": stoppable_postgres.database_url(
        stoppable_postgres.create_database())})
    client = app.test_client()
    table = Table(client)
    table.hands_ok(DRAW)
    stoppable_postgres._pg_ctl("stop", "-w", "-m", "fast")
    caplog.clear()
    try:
        assert_unavailable(table.hand(DRAW))
        assert_unavailable(client.get(table.path, headers=table.headers()))
        assert_unavailable(client.post("/api/sessions", json={"name": "x", "ruleset": "taiwan",
                                                               "players": ["A", "B", "C", "D"],
                                                               "stakes": {"base": 1, "per_tai": 1}}))
        assert_one_line_each(caplog, [f"POST {table.path}/hands", f"GET {table.path}", "POST /api/sessions"])
    finally:
        db.dispose(app)


@pytest.fixture
def short_busy_timeout(monkeypatch):
    """SQLite's busy timeout of the engines made meanwhile (the app's, when the test's ``client`` moves it)."""
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 500)


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_sqlite_locked_past_the_busy_timeout_is_503_and_records_nothing(short_busy_timeout, client, database_url,
                                                                         caplog):
    table = Table(client)
    table.hands_ok(DRAW)
    holder = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        caplog.clear()
        assert_unavailable(table.hand(DRAW))
        assert_one_line_each(caplog, [f"POST {table.path}/hands"])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(table.hands()) == 1


def test_other_database_errors_stay_500():
    """A statement the database refuses is a bug of ours, not an outage."""
    missing_table = exc.OperationalError("SELECT 1 FROM gone", {}, sqlite3.OperationalError("no such table: gone"))
    locked = exc.OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))
    assert not is_unavailable(missing_table)
    assert is_unavailable(locked)
