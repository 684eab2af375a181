"""How many times a request on an evening waits for PostgreSQL (issue 44 item 3), counted, not timed.

A round trip is a statement sent, a ``BEGIN`` psycopg sends before the first statement of a transaction,
and a ``COMMIT`` or ``ROLLBACK`` of an open one (psycopg sends nothing for those outside a transaction).
The floor (``benchmarks/floor.py``) records a hand in five: ``BEGIN``, ``SELECT … FOR UPDATE``,
``UPDATE``, ``INSERT``, ``COMMIT``.
"""
from contextlib import contextmanager

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import event

from api.http import db
from tests.api.sessions.tables import DRAW, Table

pg_only = pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
FLOOR_RECORD = 5


@contextmanager
def round_trips(app):
    """The round trips the app's engine makes, in order, as their first words (``BEGIN``, ``SELECT``, …)."""
    made = []

    def idle(connection) -> bool:
        return connection.connection.driver_connection.info.transaction_status == TransactionStatus.IDLE

    def statement(connection, _cursor, sql, *_args):
        if not connection.connection.driver_connection.autocommit and idle(connection):
            made.append("BEGIN")
        made.append(sql.split()[0].upper())

    def ending(word):
        def end(connection):
            if not idle(connection):
                made.append(word)
        return end

    engine = db.get_engine(app)
    hooks = [("before_cursor_execute", statement), ("commit", ending("COMMIT")), ("rollback", ending("ROLLBACK"))]
    for name, hook in hooks:
        event.listen(engine, name, hook)
    try:
        yield made
    finally:
        for name, hook in hooks:
            event.remove(engine, name, hook)


@pg_only
def test_a_poll_at_a_revision_already_answered_is_one_select(app, client):
    table = Table(client)
    table.hands_ok(DRAW)
    with round_trips(app) as made:
        first = client.get(table.path, headers=table.headers())
        again = client.get(table.path, headers=table.headers())
        unchanged = client.get(table.path, headers=table.headers(**{"If-None-Match": first.headers["ETag"]}))
    assert (first.status_code, again.status_code, unchanged.status_code) == (200, 200, 304)
    assert again.get_json() == first.get_json() and first.get_json()["revision"] == 2
    # the first checks the token, then reads the row for its answer; the second and the 304 only check the token
    assert made == ["SELECT", "SELECT", "SELECT", "SELECT"]


@pg_only
def test_a_recorded_hand_takes_at_most_three_round_trips_more_than_the_floors(app, client):
    table = Table(client)
    with round_trips(app) as made:
        response = table.hand(DRAW, **{"Idempotency-Key": "k1", "If-Match": '"1"'})
    assert response.status_code == 201 and response.headers["ETag"] == '"2"'
    # the token before the body; then the change: its lock, the key's earlier use, its entry, the evening, its
    # change (what the streams send), one commit; nothing after it (the route's ETag is the locked row's)
    assert made == ["SELECT", "BEGIN", "SELECT", "SELECT", "INSERT", "UPDATE", "INSERT", "COMMIT"]
    assert len(made) == FLOOR_RECORD + 3
