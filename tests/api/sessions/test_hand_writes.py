"""How a change to a session is written (issue 14): one transaction that holds the session's lock.

A changing request begins its transaction as a write (SQLite: ``BEGIN IMMEDIATE``, the database's write
lock; PostgreSQL: ``SELECT … FOR UPDATE`` on the session's row), checks the token against the locked
row, applies the change through the ledger and commits. Reads take no lock: on SQLite (WAL) they go on
while a writer holds the write lock.
"""
import json
import random
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import make_url

from api.http import db
from api.sessions.schemas import RecordedHandSchema
from benchmarks.replay import full_hand
from tests.api.sessions.tables import DRAW, Table, assert_matches_replay, assert_rejected, discard, self_draw

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
pg_only = pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
WAIT_TIMEOUT_S = 30
EVENINGS = Path(__file__).resolve().parents[3] / "fixtures"


@contextmanager
def statements(app):
    """A list of every SQL statement the app's engine sends, BEGIN included."""
    sent = []

    def keep(_connection, _cursor, statement, *_args):
        sent.append(" ".join(statement.split()))

    engine = db.get_engine(app)
    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", keep)


def in_thread(job):
    """Start ``job`` in a thread; the thread and a list that gets its result (or exception)."""
    result = []

    def run():
        try:
            result.append(job())
        except Exception as error:  # handed to the test
            result.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


def post_hand(app, table, body):
    """A job posting ``body`` to ``table`` with a test client of its own: (status, JSON)."""
    def post():
        response = app.test_client().post(f"{table.path}/hands", json=body, headers=table.headers())
        return response.status_code, response.get_json()
    return post


# -- one transaction, holding the session's lock --------------------------------------------------


@sqlite_only
def test_on_sqlite_a_change_begins_immediate_and_a_read_begins_deferred(app, client):
    table = Table(client)
    with statements(app) as sent:
        table.hands_ok(DRAW)
    # The token is checked by one statement, its own snapshot, the body read with no transaction open, then the
    # write begins.
    assert [s for s in sent if s.startswith("BEGIN")] == ["BEGIN IMMEDIATE"]
    with statements(app) as sent:
        assert client.get(table.path, headers=table.headers()).status_code == 200
    assert [s for s in sent if s.startswith("BEGIN")] == ["BEGIN"]


@sqlite_only
def test_on_sqlite_reads_go_on_while_a_writer_holds_the_lock_and_the_next_writer_waits_for_it(app, client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))  # Ben 100 + 20 × 3 = 160 from Cat
    holder = sqlite3.connect(db.get_engine(app).url.database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write transaction
    try:
        state = client.get(table.path, headers=table.headers())
        assert state.status_code == 200
        assert state.get_json()["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
        thread, result = in_thread(post_hand(app, table, self_draw("Ben", 1)))
        thread.join(0.5)
        assert thread.is_alive() and not result  # waiting for the write lock, nothing written
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    thread.join(WAIT_TIMEOUT_S)
    status, hand = result[0]
    # Ben took the deal by winning hand 1, so he deals at streak 0: 100 + 20 × (1 + 1) = 140 from each.
    assert (status, hand["number"], hand["payments"]["Ben"]) == (201, 2, 420)


@pg_only
def test_on_postgresql_a_change_waits_for_the_session_row_lock_and_then_sees_what_its_holder_wrote(
        app, client, database_url):
    table = Table(client)
    libpq_url = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq_url) as holder:
        holder.execute("SELECT id FROM sessions WHERE id = %s FOR UPDATE", (table.id,))
        thread, result = in_thread(post_hand(app, table, self_draw("Amy", 1)))
        deadline = time.monotonic() + WAIT_TIMEOUT_S
        with psycopg.connect(libpq_url, autocommit=True) as watcher:
            while not watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                      "AND datname = current_database()").fetchone()[0]:
                assert time.monotonic() < deadline, "the request did not wait for the session's row lock"
                time.sleep(0.01)
        assert not result
        # The holder changes the row (its revision) and commits: the waiting request must read the row
        # as committed then, or the ORM's revision check (version_id_col) would find nothing to update.
        holder.execute("UPDATE sessions SET revision = revision + 1 WHERE id = %s", (table.id,))
        holder.commit()
    thread.join(WAIT_TIMEOUT_S)
    status, hand = result[0]
    assert (status, hand["number"]) == (201, 1)
    # Amy deals at streak 0: 100 + 20 × (1 + 1) = 140 from each of three.
    assert hand["payments"] == {"Amy": 420, "Ben": -140, "Cat": -140, "Dan": -140}
    assert_matches_replay(app, table)


def test_hands_posted_at_once_to_one_session_get_consecutive_numbers_and_pay_as_if_one_after_another(app):
    table = Table(app.test_client())
    jobs = [post_hand(app, table, discard("Ben", "Cat", 1)) for _ in range(6)]
    threads = [in_thread(job) for job in jobs]
    for thread, _ in threads:
        thread.join(WAIT_TIMEOUT_S)
    statuses = sorted(result[0][0] for _, result in threads)
    numbers = sorted(result[0][1]["number"] for _, result in threads)
    assert (statuses, numbers) == ([201] * 6, [1, 2, 3, 4, 5, 6])
    # Ben wins hand 1 from Amy's deal (100 + 20 × 1 = 120 from Cat), then deals hands 2–6 at streak
    # n = 0 … 4, each paid 100 + 20 × (1 + 1 + 2n) by Cat.
    assert table.totals()["Ben"] == 120 + 140 + 180 + 220 + 260 + 300
    assert_matches_replay(app, table)


def test_every_change_to_a_session_moves_its_revision_on(app, client):
    table = Table(client)

    def revision():
        with db.get_engine(app).connect() as connection:
            return connection.execute(text("SELECT revision FROM sessions WHERE id = :id"), {"id": table.id}).scalar()

    seen = [revision()]
    for change in (lambda: table.hands_ok(DRAW), lambda: table.seat(3, "Eve"), lambda: table.void(1),
                   lambda: table.correct(1, self_draw("Amy", 1)), lambda: table.hands_ok(discard("Eve", "Amy"))):
        change()
        seen.append(revision())
    assert seen == sorted(set(seen)), seen  # each change a higher revision than the one before


# -- the token before the body ----------------------------------------------------------------------


def test_a_wrong_token_is_403_before_the_body_is_looked_at(client):
    table, other = Table(client), Table(client)
    response = client.post(f"{table.path}/hands", json={"winners": "nonsense"}, headers=other.headers())
    assert response.status_code == 403
    response = client.post("/api/sessions/nope/hands", json={"winners": "nonsense"}, headers=table.headers())
    assert response.status_code == 404
    assert table.hands() == []


# -- Idempotency-Key ------------------------------------------------------------------------------------


def test_a_retry_gets_its_first_answer_even_when_the_table_has_moved_on_since(app, client):
    table = Table(client)
    first = table.hand(self_draw("Dan", 1), **{"Idempotency-Key": "dan-wins"})
    assert first.status_code == 201
    assert table.seat(3, "Eve").status_code == 201  # Dan leaves: the same hand now would be refused
    assert_rejected(table.hand(self_draw("Dan", 1)), "winners[0].player", "'Dan' is not seated")
    retry = table.hand(self_draw("Dan", 1), **{"Idempotency-Key": "dan-wins"})
    assert (retry.status_code, retry.get_json()) == (201, first.get_json())
    assert [hand["number"] for hand in table.hands()] == [1]
    assert_matches_replay(app, table)


def test_a_used_key_with_a_body_that_is_invalid_now_is_422_for_the_key(client):
    table = Table(client)
    assert table.hand(DRAW, **{"Idempotency-Key": "k"}).status_code == 201
    before = table.snapshot()
    response = table.hand(discard("Amy", "Amy"), **{"Idempotency-Key": "k"})
    assert_rejected(response, "Idempotency-Key", "already used", "hand 1")
    assert table.snapshot() == before


# -- the response is sent as built -------------------------------------------------------------------


def evening_bodies(name):
    evening = json.loads((EVENINGS / name).read_text(encoding="utf-8"))
    return evening, [event["hand"] for event in evening["events"] if "hand" in event and "reject" not in event]


@pytest.mark.parametrize("name", ["evening_taiwan.json", "evening_shanghai.json"])
def test_each_posted_hand_is_what_get_returns_with_the_evening_after_it_and_what_the_schema_dumps(client, name):
    evening, bodies = evening_bodies(name)
    table = Table(client, ruleset=evening["ruleset"], players=evening["players"], stakes=evening["stakes"],
                  options=evening["options"])
    if evening["ruleset"] == "taiwan":  # and full entries, scored with their breakdowns
        rng = random.Random(5)
        bodies += [full_hand(rng, "taiwan") for _ in range(6)]
    for index, body in enumerate(bodies):
        key = {"Idempotency-Key": f"k{index}"} if index % 2 else {}
        posted = table.hand(body, **key)
        assert posted.status_code == 201, posted.get_json()
        hand = posted.get_json()
        assert hand == RecordedHandSchema().dump(hand)
        evening = table.get()
        assert hand == {**table.get(f"/hands/{hand['number']}"), "revision": evening["revision"],
                        "totals": evening["totals"]}
        if key:
            assert table.hand(body, **key).get_json() == hand


@sqlite_only
def test_on_sqlite_a_burst_of_writers_all_get_their_turn_however_short_the_busy_timeout(make_app, monkeypatch):
    # With a 1 ms busy timeout, a writer that had to wait in SQLite's busy handler would fail ("database is
    # locked"): each of these waits in the writer queue instead (api.db.WriterQueue), and none fails.
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 1)
    app = make_app()
    tables = [Table(app.test_client()) for _ in range(4)]
    jobs = [post_hand(app, tables[index % 4], DRAW) for index in range(32)]
    threads = [in_thread(job) for job in jobs]
    for thread, _ in threads:
        thread.join(WAIT_TIMEOUT_S)
    assert sorted(result[0][0] for _, result in threads) == [201] * 32
    assert [len(table.hands()) for table in tables] == [8, 8, 8, 8]
