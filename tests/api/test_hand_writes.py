"""How POST /api/sessions/<id>/hands writes (issue 7): the token checked before the lock, one COMMIT for
several hands on SQLite, the key checked by the INSERT, the response sent as built.

On SQLite the writes of concurrent requests of one process share a transaction (``api.db.GroupCommit``),
each in a savepoint of its own. To make a batch at will, the tests hold the writer lock
(``<database>.writer-lock``) as another process would, start the requests, wait until every write is
queued, then let go: the waiting leader takes them all into one transaction.
"""
import fcntl
import json
import random
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event, text

from api import db, recording
from api.auth import KEPT_HASHES_KEY, token_hash
from api.session_schemas import HandOutSchema
from benchmarks.replay import full_hand
from ledger import store
from tests.api.tables import DRAW, Table, assert_matches_replay, assert_rejected, discard, self_draw

sqlite_only = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
QUEUE_TIMEOUT_S = 30
EVENINGS = Path(__file__).resolve().parents[2] / "fixtures"


@contextmanager
def writer_lock_held(app):
    """Hold the SQLite writer lock from outside, as another gunicorn process's transaction would."""
    with open(db.get_engine(app).url.database + db.WRITER_LOCK_SUFFIX, "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def counted_commits(app):
    """A list that gets one item per COMMIT on the app's database."""
    commits = []

    def count(_connection):
        commits.append(1)

    engine = db.get_engine(app)
    event.listen(engine, "commit", count)
    try:
        yield commits
    finally:
        event.remove(engine, "commit", count)


def in_one_batch(app, jobs):
    """Run each job in a thread of its own while the writer lock is held elsewhere; let go once all are queued.

    Returns each job's result (or the exception it raised) and how many COMMITs there were.
    """
    writes = app.extensions[db.WRITES_KEY]
    results = [None] * len(jobs)

    def run(index, job):
        try:
            results[index] = job()
        except Exception as error:  # handed to the test
            results[index] = error

    with counted_commits(app) as commits:
        threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
        with writer_lock_held(app):
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + QUEUE_TIMEOUT_S
            while writes.queued < len(jobs):
                assert time.monotonic() < deadline, f"only {writes.queued} of {len(jobs)} writes queued"
                time.sleep(0.01)
        for thread in threads:
            thread.join()
        return results, len(commits)


def poster(app, table, body):
    """A job posting ``body`` to ``table`` with a test client of its own; (status, JSON)."""
    def post():
        response = app.test_client().post(f"{table.path}/hands", json=body, headers=table.headers())
        return response.status_code, response.get_json()
    return post


def with_scratch_table(app):
    """Create a table ``scratch (n)`` for writes of a test's own; the app's engine and its writes."""
    engine = db.get_engine(app)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE scratch (n INTEGER NOT NULL)"))
    return engine, app.extensions[db.WRITES_KEY]


# -- group commit (SQLite) -----------------------------------------------------------------------


@sqlite_only
def test_hands_posted_together_share_one_commit_and_a_refused_one_changes_nothing(app, client):
    amy, other = Table(client), Table(client)
    amy.hands_ok(DRAW)  # hand 1 each (and the token hashes kept, so no request waits to read one)
    other.hands_ok(DRAW)
    results, commits = in_one_batch(app, [
        poster(app, amy, self_draw("Amy", 2)),
        poster(app, amy, discard("Ben", "Ben")),  # Ben cannot discard to himself: 422, nothing written
        poster(app, amy, discard("Cat", "Dan", 1)),
        poster(app, other, self_draw("Dan", 3)),
    ])
    assert commits == 1
    (first, amy_win), (refused, error), (third, cat_win), (fourth, dan_win) = results
    assert (first, third, fourth, refused) == (201, 201, 201, 422)
    assert error["field"] == "discarder"
    # The two hands of one session in one batch get consecutive numbers, in whichever order they ran.
    assert sorted([amy_win["number"], cat_win["number"]]) == [2, 3]
    assert dan_win["number"] == 2
    # After the draw Amy deals at streak 1 (extra 3 台 on a payment with the dealer). Cat's 1 台 on
    # Dan's discard never involves the dealer: Dan pays 100 + 20 = 120, and the deal passes to Ben.
    assert cat_win["payments"] == {"Amy": 0, "Ben": 0, "Cat": 120, "Dan": -120}
    if amy_win["number"] == 2:  # Amy's self-draw first: 100 + 20 × (2 + 3) = 200 from each
        assert amy_win["payments"] == {"Amy": 600, "Ben": -200, "Cat": -200, "Dan": -200}
    else:  # after Cat's win Ben deals at streak 0 (extra 1): Ben pays 100 + 20 × 3, the others 100 + 20 × 2
        assert amy_win["payments"] == {"Amy": 440, "Ben": -160, "Cat": -140, "Dan": -140}
    # Dan self-draws 3 台, Amy dealing at streak 1: Amy pays 100 + 20 × 6, Ben and Cat 100 + 20 × 3.
    assert dan_win["payments"] == {"Amy": -220, "Ben": -160, "Cat": -160, "Dan": 540}
    hands = amy.hands()
    assert [hand["number"] for hand in hands] == [1, 2, 3]
    assert sum(hand["payments"]["Amy"] for hand in hands) == amy.totals()["Amy"]
    assert_matches_replay(app, amy)
    assert_matches_replay(app, other)


@sqlite_only
def test_two_hands_of_one_session_in_one_batch_pay_as_if_posted_one_after_the_other(app, client):
    table = Table(client)
    table.hands_ok(DRAW)
    results, commits = in_one_batch(app, [poster(app, table, self_draw("Amy", 2)),
                                          poster(app, table, self_draw("Amy", 2))])
    assert commits == 1
    assert [status for status, _ in results] == [201, 201]
    second, third = sorted((hand for _, hand in results), key=lambda hand: hand["number"])
    assert (second["number"], third["number"]) == (2, 3)
    # Amy self-draws 2 台 as dealer at streak 1 (extra 3): each pays 100 + 20 × 5 = 200; then at
    # streak 2 (extra 5): 100 + 20 × 7 = 240 from each.
    assert (second["streak"], third["streak"]) == (1, 2)
    assert second["payments"] == {"Amy": 600, "Ben": -200, "Cat": -200, "Dan": -200}
    assert third["payments"] == {"Amy": 720, "Ben": -240, "Cat": -240, "Dan": -240}
    assert table.totals() == {"Amy": 1320, "Ben": -440, "Cat": -440, "Dan": -440}
    assert_matches_replay(app, table)


@sqlite_only
def test_a_write_that_fails_after_writing_rolls_back_to_its_savepoint_only(app):
    engine, writes = with_scratch_table(app)

    def insert(n, fail=False):
        def work(connection):
            connection.execute(text("INSERT INTO scratch (n) VALUES (:n)"), {"n": n})
            if fail:
                raise ValueError(f"write {n} fails after its INSERT")
            return n
        return lambda: writes.run(work)

    results, commits = in_one_batch(app, [insert(1), insert(2, fail=True), insert(3)])
    assert commits == 1
    assert results[0] == 1 and results[2] == 3
    assert isinstance(results[1], ValueError)
    with engine.connect() as connection:
        assert sorted(connection.execute(text("SELECT n FROM scratch")).scalars()) == [1, 3]


@sqlite_only
def test_a_write_alone_in_its_batch_that_fails_keeps_nothing_and_the_next_one_goes_in(app):
    engine, writes = with_scratch_table(app)

    def failing(connection):
        connection.execute(text("INSERT INTO scratch (n) VALUES (1)"))
        raise ValueError("the only write of its batch fails after its INSERT")

    with counted_commits(app) as commits, pytest.raises(ValueError, match="only write of its batch"):
        writes.run(failing)
    assert commits == []  # rolled back: no savepoint, no COMMIT
    assert writes.run(lambda connection: connection.execute(text("INSERT INTO scratch (n) VALUES (2)")).rowcount) == 1
    with engine.connect() as connection:
        assert list(connection.execute(text("SELECT n FROM scratch")).scalars()) == [2]


@sqlite_only
def test_the_connection_that_drafted_a_hand_leads_its_batch(app, client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))  # the token's hash is now kept: no read for it
    checkouts = []

    def count(*_):
        checkouts.append(1)

    pool = db.get_engine(app).pool
    event.listen(pool, "checkout", count)
    try:
        table.hands_ok(self_draw("Ben", 1))
    finally:
        event.remove(pool, "checkout", count)
    assert checkouts == [1]  # the draft's read and the batch's transaction on one connection


@sqlite_only
def test_when_the_commit_fails_every_write_of_the_batch_fails_and_nothing_is_kept(app):
    engine = db.get_engine(app)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE scratch_parent (id INTEGER PRIMARY KEY)"))
        connection.execute(text("CREATE TABLE scratch (n INTEGER NOT NULL, "
                                "parent INTEGER REFERENCES scratch_parent (id) DEFERRABLE INITIALLY DEFERRED)"))
    writes = app.extensions[db.WRITES_KEY]

    def insert(n, parent=None):
        def work(connection):
            connection.execute(text("INSERT INTO scratch (n, parent) VALUES (:n, :parent)"),
                               {"n": n, "parent": parent})
            return n
        return lambda: writes.run(work)

    # Write 2 names a parent that does not exist: SQLite finds it out only at COMMIT.
    results, _ = in_one_batch(app, [insert(1), insert(2, parent=7), insert(3)])
    assert all(isinstance(result, Exception) and "FOREIGN KEY" in str(result) for result in results), results
    with engine.connect() as connection:
        assert list(connection.execute(text("SELECT n FROM scratch")).scalars()) == []
    assert writes.run(lambda _connection: "next") == "next"  # the next batch starts afresh


# -- worked out first, written only if the session is still at the same revision -------------------------


@contextmanager
def drafts_written(monkeypatch):
    """A list of what ``store.write_draft`` answered: True written, False not (the session moved, or the key is taken)."""
    answers = []
    write_draft = store.write_draft

    def recorded(connection, draft):
        answers.append(write_draft(connection, draft))
        return answers[-1]

    monkeypatch.setattr(store, "write_draft", recorded)
    yield answers


def test_a_hand_is_worked_out_first_and_written_if_the_session_did_not_move(app, client, monkeypatch):
    table = Table(client)
    with drafts_written(monkeypatch) as answers:
        # Amy deals (streak 0, extra 1 台) and self-draws 2 台: 100 + 20 × 3 = 160 from each.
        first, = table.hands_ok(self_draw("Amy", 2))
        retry = table.hand(self_draw("Amy", 2), **{"Idempotency-Key": "amy"})
        again = table.hand(self_draw("Amy", 2), **{"Idempotency-Key": "amy"})
    assert first["payments"] == {"Amy": 480, "Ben": -160, "Cat": -160, "Dan": -160}
    # Hand 2, Amy at streak 1 (extra 3): 100 + 20 × 5 = 200 from each; its retry changes nothing.
    assert retry.status_code == again.status_code == 201
    assert retry.get_json() == again.get_json()
    assert retry.get_json()["payments"] == {"Amy": 600, "Ben": -200, "Cat": -200, "Dan": -200}
    # The retry's draft finds its key taken: nothing written. The statement that checks the revision cannot
    # tell that from a session that moved, so the answer is False, and the locked path finds the key.
    assert answers == [True, True, False]
    assert table.totals() == {"Amy": 1080, "Ben": -360, "Cat": -360, "Dan": -360}
    assert_matches_replay(app, table)


def test_a_hand_worked_out_before_a_void_is_worked_out_again_after_it(app, client, monkeypatch):
    table = Table(client)
    table.hands_ok(DRAW, discard("Cat", "Dan", 1))  # after hand 2 the deal has passed to Ben
    draft = recording._draft
    voids = []

    def void_hand_2_meanwhile(*args):
        drafted = draft(*args)
        if not voids:  # as if a void from another phone committed between the snapshot and the lock
            thread = threading.Thread(target=lambda: voids.append(app.test_client().delete(
                f"{table.path}/hands/2", headers=table.headers()).status_code))
            thread.start()
            thread.join()
        return drafted

    monkeypatch.setattr(recording, "_draft", void_hand_2_meanwhile)
    with drafts_written(monkeypatch) as answers:
        third, = table.hands_ok(self_draw("Dan", 3))
    assert voids == [200]
    assert answers == [False]  # the draft, made with Ben dealing, was not written
    # With hand 2 void, Amy deals at streak 1 after the draw (extra 3 台): Dan's 3-台 self-draw takes
    # 100 + 20 × 6 = 220 from Amy and 100 + 20 × 3 = 160 from Ben and Cat. (Drafted: Ben paid 180.)
    assert (third["number"], third["dealer"], third["streak"]) == (3, "Amy", 1)
    assert third["payments"] == {"Amy": -220, "Ben": -160, "Cat": -160, "Dan": 540}
    assert table.totals() == {"Amy": -220, "Ben": -160, "Cat": -160, "Dan": 540}
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


# -- the token before the body, and again under the lock ---------------------------------------------


def test_a_wrong_token_is_403_before_the_body_is_looked_at(client):
    table, other = Table(client), Table(client)
    response = client.post(f"{table.path}/hands", json={"winners": "nonsense"}, headers=other.headers())
    assert response.status_code == 403
    response = client.post("/api/sessions/nope/hands", json={"winners": "nonsense"}, headers=table.headers())
    assert response.status_code == 404
    assert table.hands() == []


def test_a_kept_token_hash_can_refuse_early_but_never_lets_a_request_in(app, client):
    table = Table(client)
    table.hands_ok(DRAW)
    kept = app.extensions[KEPT_HASHES_KEY]
    assert kept[table.id] == token_hash(table.token)
    kept[table.id] = token_hash("forged")  # as if the memo were wrong
    forged = client.post(f"{table.path}/hands", json=DRAW, headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 403
    assert [hand["number"] for hand in table.hands()] == [1]


# -- Idempotency-Key, checked by the INSERT ------------------------------------------------------------


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
def test_each_posted_hand_is_what_get_returns_and_what_the_schema_dumps(client, name):
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
        assert hand == HandOutSchema().dump(hand)
        assert hand == table.get(f"/hands/{hand['number']}")
        if key:
            assert table.hand(body, **key).get_json() == hand
