"""How many times a request on an evening waits for PostgreSQL (issue 44 item 3), counted, not timed.

A round trip is a statement sent, a ``BEGIN`` psycopg sends before the first statement of a transaction,
and a ``COMMIT`` or ``ROLLBACK`` of an open one (psycopg sends nothing for those outside a transaction).
The floor (``benchmarks/floor.py``) records a hand in five: ``BEGIN``, ``SELECT … FOR UPDATE``,
``UPDATE``, ``INSERT``, ``COMMIT``.
"""
import sqlite3
import threading
import time
from contextlib import contextmanager

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import event, text
from sqlmodel import Session

from api.http import db
from ledger import group_store, store
from ledger.store import EntryRow
from tests.api.sessions.tables import DRAW, Table

pg_only = pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
FLOOR_RECORD = 5


@contextmanager
def round_trips(app):
    """The round trips the app's engine makes, in order, as their first words (``BEGIN``, ``SELECT``, …)."""
    made = []

    def idle(connection) -> bool:
        driver = connection.connection.driver_connection
        if isinstance(driver, sqlite3.Connection):
            return not driver.in_transaction
        return driver.info.transaction_status == TransactionStatus.IDLE

    def statement(connection, _cursor, sql, *_args):
        driver = connection.connection.driver_connection
        if not isinstance(driver, sqlite3.Connection) and not driver.autocommit and idle(connection):
            made.append("BEGIN")  # psycopg's own (SQLite's is a statement: api.http.db)
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


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_on_sqlite_the_token_check_begins_no_transaction(app, client):
    table = Table(client)
    table.hands_ok(DRAW)
    with round_trips(app) as made:
        first = client.get(table.path, headers=table.headers())
        after_first = len(made)
        unchanged = client.get(table.path, headers=table.headers(**{"If-None-Match": first.headers["ETag"]}))
        client.get(table.path, headers=table.headers())
    assert (first.status_code, unchanged.status_code) == (200, 304)
    # the token's one statement is its own snapshot; the first answer's reads are one (SQLite's ROLLBACK is the
    # writer queue's call on the driver, not counted here)
    assert made[:after_first] == ["SELECT", "BEGIN", "SELECT"]
    assert made[after_first:] == ["SELECT", "SELECT"]


@pg_only
def test_a_recorded_hand_takes_at_most_one_round_trip_more_than_the_floors(app, client):
    table = Table(client)
    with round_trips(app) as made:
        response = table.hand(DRAW, **{"Idempotency-Key": "k1", "If-Match": '"1"'})
    assert response.status_code == 201 and response.headers["ETag"] == '"2"'
    # the token before the body; then the change: its lock with the key's earlier use, the evening, its entry
    # with its change (what the streams send) in one WITH, one commit; nothing after it (the ETag is the locked row's)
    assert made == ["SELECT", "BEGIN", "SELECT", "UPDATE", "WITH", "COMMIT"]
    assert len(made) == FLOOR_RECORD + 1


@pg_only
def test_a_retry_is_answered_from_the_lock_and_writes_nothing(app, client):
    table = Table(client)
    first = table.hand(DRAW, **{"Idempotency-Key": "k1"})
    with round_trips(app) as made:
        again = table.hand(DRAW, **{"Idempotency-Key": "k1"})
    assert (first.status_code, again.status_code) == (201, 201) and again.get_json() == first.get_json()
    assert made == ["SELECT", "BEGIN", "SELECT", "COMMIT"]


#: Appending (a hand, a seat, house rules from the next hand) writes the evening and one WITH of its entry and
#: change; house rules add their audit line. A void and a correction read the entries; they and a close write
#: (in the order of SQLAlchemy's unit of work) an audit line, the evening, the hand (not a close) and the change.
CHANGES = {
    "seat": (lambda table: table.seat(0, "Eve"), ["UPDATE", "WITH"]),
    "house rules from the next hand": (
        lambda table: table.client.post(f"{table.path}/house_rules", json={"values": {"self_draw": 2}},
                                        headers=table.headers()), ["UPDATE", "WITH", "INSERT"]),
    "void": (lambda table: table.void(1), ["SELECT", "INSERT", "UPDATE", "UPDATE", "INSERT"]),
    "correction": (lambda table: table.correct(1, {"draw": True, "reason": "four_winds"}),
                   ["SELECT", "INSERT", "UPDATE", "UPDATE", "INSERT"]),
    "close": (lambda table: table.client.post(f"{table.path}/close", headers=table.headers()),
              ["INSERT", "UPDATE", "INSERT"]),
}


@pg_only
@pytest.mark.parametrize("change", CHANGES)
def test_every_change_is_one_transaction_after_the_token(app, client, change):
    send, writes = CHANGES[change]
    table = Table(client)
    table.hands_ok(DRAW)
    with round_trips(app) as made:
        response = send(table)
    assert response.status_code in (200, 201), response.get_json()
    assert response.headers["ETag"] == '"3"'
    assert made == ["SELECT", "BEGIN", "SELECT", *writes, "COMMIT"], " ".join(made)


@pg_only
def test_a_lock_that_waited_finds_the_key_its_holder_just_used(app, client):
    """The lock's one statement reads joined rows as they were when it began: the key is asked again."""
    table = Table(client)
    engine = db.get_engine(app)
    with Session(engine) as holder, Session(engine) as waiter:
        db.begin_write(holder)
        session, _ = group_store.find_session_and_group(holder, table.id, lock=True)
        holder.add(EntryRow(session_id=table.id, position=1, kind="hand", number=1, body=DRAW, result={},
                            idempotency_key="k", request_hash="h", response={"number": 1}))
        session.updated_at = store.utc_now()  # a change moves the revision
        holder.flush()
        found = {}

        def lock():
            db.begin_write(waiter)
            locked = group_store.lock_evening(waiter, table.id, "k")
            found.update(revision=locked.session.revision, keyed=locked.keyed)

        waiting = threading.Thread(target=lock)
        waiting.start()
        while not _someone_waits_for_a_lock(engine):
            time.sleep(0.01)
        holder.commit()
        waiting.join()
        waiter.rollback()
    assert found == {"revision": 2,  # created at 1, the holder's change 2
                     "keyed": store.KeyedEntry("hand", 1, "h", {"number": 1})}


def _someone_waits_for_a_lock(engine) -> bool:
    with engine.connect() as connection:  # each statement a snapshot of its own (the app's reads autocommit)
        return connection.execute(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                       " AND datname = current_database()")).scalar() > 0
