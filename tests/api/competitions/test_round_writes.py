"""A draw computed outside the lock, and a round's draw, start and end written whole (issue 39 item 2).

The draw is computed from a read, then written under the competition's lock only if the competition and
its tables are as read: an entrant withdrawn in between (Ivy, the ninth of nine, who would otherwise sit
out) is in no table and does not sit out, and the draw was computed twice. A draw or an end that fails
halfway writes nothing: no evening, table or round; no table closed, the round not ended.
"""
import pytest
from sqlmodel import select

from api.competitions import service
from api.http.db import get_db
from api.sessions import service as sessions
from ledger import competition_store
from ledger.store import SessionRow
from tests.api.competitions.test_competitions import NAMES, entered


def test_a_draw_read_before_a_change_is_computed_again(client, monkeypatch):
    cup = entered(client, NAMES)  # nine: one sits out
    computed = []
    compute = service._computed_draw

    def withdrawing_first(*args):
        if not computed:
            cup.ok(client.delete(f"{cup.path}/entrants/Ivy", headers=cup.headers("organizer")))
        computed.append(args)
        return compute(*args)

    monkeypatch.setattr(service, "_computed_draw", withdrawing_first)
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    assert len(computed) == 2
    seated = [name for table in drawn["tables"] for name in table["seats"]]
    assert sorted(seated) == sorted(NAMES[:8]) and drawn["sitting_out"] == []


def test_a_draw_that_fails_while_writing_writes_nothing(app, client, monkeypatch):
    cup = entered(client, NAMES[:8])

    def failing(*args, **kwargs):
        raise OSError("disk gone")

    monkeypatch.setattr(service, "_audit", failing)  # the last thing a draw writes before it commits
    with pytest.raises(OSError):
        cup.post("/rounds", {"seed": 3})
    monkeypatch.undo()
    shown = cup.ok(cup.get())
    assert shown["drawn"] == [] and shown["revision"] == 1  # created and entered: nothing of a draw
    with app.app_context():
        db = get_db()
        assert competition_store.tables_with_sessions(db, cup.created["id"]) == []
        assert db.exec(select(SessionRow)).all() == []


def test_an_end_that_fails_while_closing_closes_no_table(client, monkeypatch):
    cup = entered(client, NAMES[:8])
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    cup.ok(cup.post("/rounds/1/start"))
    kept = sessions.keep_for_streams
    calls = []

    def failing_second(db, change):
        calls.append(change)
        if len(calls) == 2:
            raise OSError("disk gone")
        kept(db, change)

    monkeypatch.setattr(sessions, "keep_for_streams", failing_second)
    with pytest.raises(OSError):
        cup.post("/rounds/1/end")
    monkeypatch.undo()
    round_one = cup.ok(cup.get(level="organizer"))["drawn"][0]
    assert round_one["ended_at"] is None and [table["closed"] for table in round_one["tables"]] == [False, False]
    ended = cup.ok(cup.post("/rounds/1/end"))
    assert ended["ended_at"] is not None and [table["closed"] for table in ended["tables"]] == [True, True]
