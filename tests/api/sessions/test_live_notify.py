"""A change's PostgreSQL notification carries the change (issue 28, migration 0013), so the other processes that
follow its evening send it without reading it; one too large for a notification is named and read.

Asserted on the notifications themselves (a connection of the test's that listens) and on a ``Watcher`` told a
notification, with every statement it runs counted.
"""
import json

import psycopg
import pytest
from sqlalchemy import event
from sqlalchemy.engine import make_url

from api.http.db import get_engine
from api.http.live import NOTIFY_BYTES, Watcher
from tests.api.sessions.tables import Table, discard

pytestmark = pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)


def listening(database_url: str) -> psycopg.Connection:
    url = make_url(database_url).set(drivername="postgresql")
    connection = psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)
    connection.execute("LISTEN taizhang_live")
    return connection


def heard(connection: psycopg.Connection) -> list[str]:
    return [notify.payload for notify in connection.notifies(timeout=2, stop_after=1)]


def test_a_hands_notification_carries_its_kind_and_its_data_as_stored(app, database_url):
    client = app.test_client()
    table = Table(client)
    listener = listening(database_url)
    try:
        table.hands_ok(discard("Ben", "Cat", 3))
        (payload,) = heard(listener)
    finally:
        listener.close()
    head, session_id, revision, kind, data = payload.split(" ", 4)
    assert (head, session_id, revision, kind) == ("d", table.id, "2", "hand")
    data = json.loads(data)
    # Cat pays Ben 100 + 20 × 3 = 160; the state after hand 1: Ben, not the dealer, won, so the deal passes on.
    assert (data["revision"], data["kind"], data["entry"]["number"]) == (2, "hand", 1)
    assert data["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
    assert data["entry"]["payments"]["Cat"] == -160
    assert data["state"]["closed"] is False


def test_a_change_too_large_to_carry_is_named_and_read(app, database_url):
    """PostgreSQL refuses a payload of 8,000 bytes: the trigger names the change instead (its writer's commit
    would otherwise fail)."""
    client = app.test_client()
    table = Table(client)
    large = {"note": "x" * NOTIFY_BYTES}
    listener = listening(database_url)
    try:
        with get_engine(app).begin() as connection:
            connection.exec_driver_sql("INSERT INTO changes (session_id, revision, kind, data, at) "
                                       "VALUES (%(id)s, 2, 'seat', %(data)s, now())",
                                       {"id": table.id, "data": json.dumps(large)})
        assert heard(listener) == [f"c {table.id} 2"]
    finally:
        listener.close()


def follow(app, table):
    watcher = Watcher(get_engine(app), poll_s=3600, check_s=3600)
    watcher._kick = type("Kick", (), {"set": lambda self: None})()  # no threads: the test tells it everything
    watcher._thread = object()
    return watcher, watcher.follow(table.id, 1, 1, "key", "stored", lambda change: f"{change.revision} {change.data}")


def counted(app) -> list[str]:
    statements = []
    event.listen(get_engine(app), "before_cursor_execute", lambda *args: statements.append(args[2]))
    return statements


def test_a_carried_change_reaches_the_streams_without_a_read_and_after_a_gap_the_missed_ones_are_read(app):
    client = app.test_client()
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3), discard("Cat", "Dan", 1))  # revisions 2 and 3
    watcher, follower = follow(app, table)
    statements = counted(app)
    watcher._heard(f'd {table.id} 2 hand {{"revision": 2, "totals": {{"Ben": 160}}}}')
    assert (watcher.texts(follower), statements) == (["2 {'revision': 2, 'totals': {'Ben': 160}}"], [])
    watcher._heard(f'd {table.id} 2 hand {{"revision": 2}}')  # heard already (say, told by its own commit)
    assert (watcher.texts(follower), statements) == ([], [])
    # Revision 4 comes before 3 was heard: 3 and 4 are read from the database, in order.
    table.hands_ok(discard("Dan", "Amy", 2))
    statements.clear()  # (the recording's own)
    watcher._heard(f'd {table.id} 4 hand {{"revision": 4}}')
    texts = watcher.texts(follower)
    assert [text.split(" ", 1)[0] for text in texts] == ["3", "4"]
    assert len(statements) == 1  # one read of the changes after 2
    # Revision 3 as stored: Cat won 1 台 off Dan's discard (neither deals: Ben does after hand 1), Dan paying
    # 100 + 20 = 120; Cat's total -160 + 120 = -40.
    assert "'Cat': -40" in texts[0] and "'Dan': -120" in texts[0]
