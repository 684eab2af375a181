"""A competition live and as CSV: ``GET …/events`` (``round``, ``table``, ``standings``) and ``…/standings.csv``.

The stream is read through Flask's test client without buffering, each chunk one event (as
tests/api/sessions/test_events.py reads an evening's). Worked amounts as in test_competitions.py: a
3-台 win on a discard, the dealer not involved, is 160.
"""
import json

from tests.api.competitions.test_competitions import NAMES, entered
from tests.api.sessions.tables import discard
from tests.api.streams import EventStream

#: Never within a test: what reaches the wall is pushed (api.competitions.events), not read by a poll.
NEVER_S = 3600



class Stream(EventStream):
    """A competition's open event stream (``tests/api/streams.py``), polled every 20 ms."""

    def __init__(self, client, path):
        client.application.config.update(COMPETITION_POLL_S=0.02, EVENTS_HEARTBEAT_S=0.1)
        super().__init__(client, path, ids=str)


def test_the_wall_follows_the_round_each_table_and_the_standings(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    stream = Stream(client, f"{cup.path}/events?token={cup.tokens['read']}")
    try:
        (_, first, competition), (_, second, standings) = stream.take(2)
        assert (first, second) == ("round", "standings")
        assert competition["current_round"] == 1 and "token" not in competition["drawn"][0]["tables"][0]
        assert len(standings) == 8 and all(row["points"] == 0 for row in standings)
        table = drawn["tables"][1]
        east, south, west, north = table["seats"]
        recorded = client.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                               headers={"Authorization": f"Bearer {table['token']}"})
        assert recorded.status_code == 201
        (_, kind, moved), (_, after_kind, after) = stream.take(2)
        assert (kind, moved["round"], moved["table"], moved["hands"]) == ("table", 1, 2, 1)
        assert moved["totals"][south] == 160
        assert after_kind == "standings" and after[0]["name"] == south and after[0]["points"] == 4
        cup.ok(cup.post("/rounds/1/start"))
        event_id, kind, started = stream.take(1)[0]
        assert kind == "round" and started["drawn"][0]["started_at"] is not None
        assert event_id.split(".")[0] == str(started["revision"])
    finally:
        stream.close()


def test_a_stream_needs_one_of_the_competitions_tokens(client):
    cup = entered(client, NAMES[:4])
    assert client.get(f"{cup.path}/events").status_code == 401
    assert client.get(f"{cup.path}/events?token=not-its-token").status_code == 403


def test_the_standings_as_csv(client):
    cup = entered(client, NAMES[:4] + ["=Eve"])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    table = drawn["tables"][0]
    east, south, west, north = table["seats"]
    client.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                headers={"Authorization": f"Bearer {table['token']}"})
    response = client.get(f"{cup.path}/standings.csv?token={cup.tokens['read']}")
    assert response.status_code == 200 and response.headers["Content-Type"] == "text/csv; charset=utf-8"
    lines = response.data.decode("utf-8-sig").splitlines()
    assert lines[0] == ("rank,entrant,name,points,net,withdrawn,round_1_table,round_1_wind,round_1_opponents,"
                        "round_1_net,round_1_place,round_1_points,round_1_status")
    assert lines[1].split(",")[2:] == [south, "4", "160", "0", "1", "S", f"{east} / {west} / {north}", "160", "1",
                                       "4", "played"]
    # east and north share places 2-3: place (2 + 3) / 2 = 5/2, points (2 + 1) / 2 = 3/2, as decimals (a
    # spreadsheet reads "3/2" as a date)
    assert lines[2].split(",")[3:6] == ["1.5", "0", "0"] and lines[2].split(",")[9:] == ["0", "2.5", "1.5", "played"]
    sat_out = drawn["sitting_out"][0]
    row = next(line for line in lines[1:] if line.split(",")[2].lstrip("'") == sat_out)
    assert row.split(",")[6:] == ["", "", "", "", "", "", "sat_out"]
    assert "'=Eve" in response.data.decode("utf-8-sig")  # a name a spreadsheet would run is made inert


def events(text: bytes) -> list[bytes]:
    """The events of one piece a stream writes."""
    return [event for event in text.split(b"\n\n") if event]


def read_again(found, competition_id):
    """What the Board's thread does when told of a change, here and now."""
    with found._building:
        return found._refresh(competition_id, None, full=True)


def test_two_streams_read_the_same_written_events_and_one_that_missed_a_build_catches_up(client, app):
    """The Board writes each build's events once for every stream of the process (api.competitions.events); a
    stream whose last build is not the one before writes its own, from what it last sent."""
    from api.competitions.events import Waker, _texts_since, board

    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    with app.app_context():
        found = board(app)
        found._followers[cup.created["id"]] = {Waker()}  # followed, with no thread: the test builds
        first = found.view(cup.created["id"])
        assert [text.split(b"\n")[1] for text in events(_texts_since(None, first))] == [b"event: round",
                                                                                      b"event: standings"]
        for number, table in enumerate(drawn["tables"]):
            east, south, west, north = table["seats"]
            assert client.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                               headers={"Authorization": f"Bearer {table['token']}"}).status_code == 201
            if number == 0:
                second = read_again(found, cup.created["id"])
        third = read_again(found, cup.created["id"])
        assert _texts_since(second, third) is third.delta  # the same bytes for every stream that sent second
        caught_up = [json.loads(text.split(b"data: ", 1)[1]) for text in events(_texts_since(first, third))]
        tables = [event for event in caught_up if "session" in event]
        assert sorted((event["table"], event["hands"]) for event in tables) == [(1, 1), (2, 1)]
        assert caught_up[-1][0]["points"] == 4  # the standings: two 南 at 4 points lead
        assert _texts_since(third, third) == b""
        standings = third._written[("standings", None)]  # written once for both
        assert _texts_since(first, third).endswith(standings) and third.delta.endswith(standings)


def test_a_hand_reaches_the_wall_pushed_from_this_process_and_another_with_no_poll(make_app):
    """The competition's row is read once an hour and its evenings' changes never polled: a hand recorded in
    this process (its commit), one recorded by another process (the changes SQLite's watcher reads every 50 ms,
    PostgreSQL's notification) and the round's start (the competition's own commit) each reach the wall."""
    wall_app = make_app(COMPETITION_POLL_S=NEVER_S, EVENTS_CHECK_S=NEVER_S, EVENTS_HEARTBEAT_S=0.1)
    other = make_app().test_client()  # a second process on the same database
    client = wall_app.test_client()
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    stream = EventStream(client, f"{cup.path}/events?token={cup.tokens['read']}", ids=str)
    try:
        assert [kind for _, kind, _ in stream.take(2)] == ["round", "standings"]
        for writer, table in ((client, drawn["tables"][0]), (other, drawn["tables"][1])):
            east, south, west, north = table["seats"]
            assert writer.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                               headers={"Authorization": f"Bearer {table['token']}"}).status_code == 201
            (_, kind, moved), (_, after_kind, after) = stream.take(2)
            assert (kind, moved["table"], moved["hands"], moved["totals"][south]) == ("table", table["table"], 1, 160)
            # 南 won 3 台 on 西's discard: 160, placement points 4
            assert after_kind == "standings" and {row["name"]: row["points"] for row in after}[south] == 4
        cup.ok(cup.post("/rounds/1/start"))
        kinds = [kind for _, kind, _ in stream.take(1)]
        assert kinds == ["round"]
    finally:
        stream.close()


def test_the_standings_event_is_the_standings_as_written_whole_after_every_hand(client, app):
    """The Board writes each entrant's line apart from its rank and keeps it while it shows the same
    (``standings_text``): its text is, byte for byte, the standings' JSON written whole, after hands at each
    table, a void and a withdrawal (one who sat out, ties, a withdrawn entrant)."""
    from api.competitions.events import Waker, board, compact
    from api.competitions.service import Snapshot
    from api.competitions.views import standings_view
    from ledger import competition_store
    from sqlmodel import Session

    cup = entered(client, NAMES[:8] + ["Ivy"])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    with app.app_context():
        found = board(app)
        found._followers[cup.created["id"]] = {Waker()}
        found.view(cup.created["id"])

        def whole():
            with Session(found.engine) as db:
                snapshot = Snapshot(db, competition_store.find_competition(db, cup.created["id"]))
                names = {entrant.number: entrant.name for entrant in snapshot.entrants}
                return compact(standings_view(snapshot.standings(), names))

        for table in drawn["tables"]:
            east, south, west, north = table["seats"]
            headers = {"Authorization": f"Bearer {table['token']}"}
            for hand in (discard(south, west, 3), discard(east, north, 1)):
                recorded = client.post(f"/api/sessions/{table['session']}/hands", json=hand, headers=headers)
                assert recorded.status_code == 201
                assert read_again(found, cup.created["id"]).standings == whole()
        first = drawn["tables"][0]
        assert client.delete(f"/api/sessions/{first['session']}/hands/1",
                             headers={"Authorization": f"Bearer {first['token']}"}).status_code == 200
        assert read_again(found, cup.created["id"]).standings == whole()
        cup.ok(client.delete(f"{cup.path}/entrants/{drawn['tables'][1]['seats'][0]}", headers=cup.headers()))
        built = read_again(found, cup.created["id"])
        assert built.standings == whole()
        assert any(row["withdrawn"] for row in json.loads(built.standings))
