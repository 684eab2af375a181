"""Check-in (報到) and what a table's evening knows of its round, through the HTTP API on both databases.

A competition with ``check_in`` seats only the entrants checked in; the others of the round sit it out as
``absent`` (still entered, not withdrawn). Every refusal of ``POST``/``DELETE …/entrants/<entrant>/check_in``:
no token (401), a token not the competition's (403), the read-only token (403), an unknown entrant (404), one
who withdrew (409), each in the reader's language, changing nothing.

Worked by hand: 9 entrants, Amy…Hal (8) checked in, Ivy not: one table-pair of 8, Ivy absent, nobody sitting
out by rule (8 is a multiple of four). A table's round clock of 90 minutes started just now shows between
89 and 90 minutes left (5,340–5,400 s), not time up; its first 將 is not complete before a hand.
"""
import datetime

import pytest

from ledger import competition_store, store
from tests.api.competitions.test_competitions import NAMES, ZH_HANS, ZH_HANT, Cup, entered
from tests.api.sessions.tables import discard


def checked(cup, names):
    for name in names:
        cup.ok(cup.post(f"/entrants/{name}/check_in"))


def test_with_check_in_a_draw_seats_only_those_checked_in(client):
    cup = entered(client, check_in=True)
    assert cup.created["check_in"] is True
    assert cup.ok(cup.get())["ranking"] == cup.created["ranking"] == {"placement_points": [4, 2, 1, 0]}
    checked(cup, NAMES[:8])
    shown = cup.ok(cup.get())
    assert [e["checked_in"] for e in shown["entrants"]] == [True] * 8 + [False]
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    seated = sorted(name for table in drawn["tables"] for name in table["seats"])
    assert seated == sorted(NAMES[:8])
    assert drawn["sitting_out"] == [] and drawn["absent"] == ["Ivy"]
    ivy = next(row for row in cup.ok(cup.get("/standings")) if row["name"] == "Ivy")
    assert ivy["rounds"] == [{"round": 1, "table": None, "wind": None, "opponents": [], "net": 0, "place": None,
                              "points": 0, "points_exact": "0", "played": False, "sat_out": True}]
    assert ivy["withdrawn"] is False


def test_undoing_a_check_in_leaves_the_entrant_out_of_the_next_draw(client):
    cup = entered(client, NAMES[:8] + ["Ivy", "Jon"], check_in=True)
    checked(cup, NAMES[:8] + ["Ivy"])
    undone = cup.ok(client.delete(f"{cup.path}/entrants/Ivy/check_in", headers=cup.headers()))
    assert undone["checked_in"] is False and undone["withdrawn_from"] is None
    again = cup.ok(client.delete(f"{cup.path}/entrants/Ivy/check_in", headers=cup.headers()))
    assert again["checked_in"] is False
    drawn = cup.ok(cup.post("/rounds"), 201)
    assert sorted(drawn["absent"]) == ["Ivy", "Jon"] and drawn["sitting_out"] == []


def test_without_check_in_required_nobody_is_absent(client):
    cup = entered(client, ranking="net")
    assert cup.created["check_in"] is False
    assert cup.ok(cup.get())["ranking"] == cup.created["ranking"] == "net"
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    assert drawn["absent"] == [] and len(drawn["sitting_out"]) == 1


def test_checking_in_twice_changes_nothing(app, client):
    cup = entered(client, check_in=True)
    first = cup.ok(cup.post("/entrants/1/check_in"))
    revision = cup.ok(cup.get())["revision"]
    second = cup.ok(cup.post("/entrants/Amy/check_in"))
    assert first["checked_in"] is second["checked_in"] is True and first["name"] == "Amy"
    assert cup.ok(cup.get())["revision"] == revision
    with app.app_context():
        from api.http.db import get_db
        actions = [audit.action for audit in competition_store.audits(get_db(), cup.created["id"])]
    assert actions.count("check_in") == 1


def test_every_refusal_of_a_check_in(client):
    cup = entered(client, check_in=True)
    other = Cup(client)
    path = f"{cup.path}/entrants/Amy/check_in"
    assert client.post(path).status_code == 401
    stranger = client.post(path, headers={"Authorization": f"Bearer {other.tokens['organizer']}", **ZH_HANT})
    assert stranger.status_code == 403
    read = client.post(path, headers=cup.headers("read", ZH_HANT))
    assert read.status_code == 403 and read.get_json()["message"] == "這是比賽的唯讀連結：可以看，不能改。"
    assert client.delete(path, headers=cup.headers("read")).status_code == 403
    unknown = cup.post("/entrants/Zed/check_in", extra=ZH_HANS)
    assert unknown.status_code == 404 and unknown.get_json()["message"] == "这个比赛没有参赛者 'Zed'。"
    cup.ok(client.delete(f"{cup.path}/entrants/Ivy", headers=cup.headers()))
    withdrawn = cup.post("/entrants/Ivy/check_in")
    assert withdrawn.status_code == 409
    assert withdrawn.get_json()["message"] == "'Ivy' has withdrawn and cannot check in."
    assert cup.post("/entrants/Ivy/check_in", extra=ZH_HANT).get_json()["message"] == "'Ivy' 已經退賽，不能報到。"
    assert [e["checked_in"] for e in cup.ok(cup.get())["entrants"]] == [False] * 9


def test_a_tables_evening_knows_its_round_and_its_clock(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds"), 201)
    table = drawn["tables"][1]
    path, auth = f"/api/sessions/{table['session']}", {"Authorization": f"Bearer {table['read_token']}"}
    before = client.get(path, headers=auth).get_json()
    assert before["competition"] == {
        "competition": cup.created["id"], "name": "Spring cup", "round": 1, "rounds": 2, "table": 2,
        "until": "jiang", "minutes": 90, "started_at": None, "ends_at": None, "seconds_left": None,
        "time_up": False, "jiang_done": False, "ended_at": None, "grace_until": None, "grace_open": False}
    cup.ok(cup.post("/rounds/1/start"))
    started = client.get(path, headers=auth).get_json()
    assert started["revision"] == before["revision"] + 1  # the evening's own stream says the round started
    clock = started["competition"]
    assert 89 * 60 <= clock["seconds_left"] <= 90 * 60 and clock["time_up"] is False
    assert (datetime.datetime.fromisoformat(clock["ends_at"]) - datetime.datetime.fromisoformat(
        clock["started_at"])) == datetime.timedelta(minutes=90)
    cup.ok(cup.post("/rounds/1/end", {"grace": 5}))
    ended = client.get(path, headers=auth).get_json()["competition"]
    assert ended["seconds_left"] is None and ended["ended_at"] is not None and ended["grace_open"] is True
    assert (datetime.datetime.fromisoformat(ended["grace_until"]) - datetime.datetime.fromisoformat(
        ended["ended_at"])) == datetime.timedelta(minutes=5)
    write = {"Authorization": f"Bearer {table['token']}"}
    east, south, west, north = table["seats"]
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=write).status_code == 201
    assert client.get(path, headers=auth).get_json()["competition"]["grace_open"] is False  # the one hand is in


def test_the_round_start_is_a_change_of_the_evening(app, client):
    cup = entered(client, NAMES[:8])
    table = cup.ok(cup.post("/rounds"), 201)["tables"][0]
    path, auth = f"/api/sessions/{table['session']}", {"Authorization": f"Bearer {table['token']}"}
    east, south, west, north = table["seats"]
    drawn_at = client.get(path, headers=auth).get_json()["revision"]
    cup.ok(cup.post("/rounds/1/start"))
    with app.app_context():
        from api.http.db import get_db
        changes = store.changes_after(get_db(), table["session"], drawn_at)
        assert [(change.revision, change.kind, change.data["entry"]) for change in changes] == [
            (drawn_at + 1, "round", None)]
    # A phone that followed the stream records against the new revision.
    assert client.post(f"{path}/hands", json=discard(south, west, 3),
                       headers={**auth, "If-Match": f'"{drawn_at + 1}"'}).status_code == 201
    assert client.get(path, headers=auth).get_json()["totals"][south] == 160


def test_an_evening_of_no_competition_knows_none(client):
    created = client.post("/api/sessions", json={"name": "Friday", "ruleset": "taiwan", "players": NAMES[:4],
                                                 "stakes": {"base": 100, "per_tai": 20}}).get_json()
    shown = client.get(f"/api/sessions/{created['id']}", headers={"Authorization": f"Bearer {created['token']}"})
    assert shown.get_json()["competition"] is None


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_the_served_spec_documents_check_in_and_a_tables_round(client):
    spec = client.get("/api/openapi.json").get_json()
    check_in = spec["paths"]["/api/competitions/{competition_id}/entrants/{entrant}/check_in"]
    assert set(check_in) >= {"post", "delete"} and "409" in check_in["post"]["responses"]
    schemas = spec["components"]["schemas"]
    assert "check_in" in schemas["CompetitionCreate"]["properties"]
    assert "checked_in" in schemas["Entrant"]["required"]
    assert set(schemas["TableRound"]["properties"]) >= {"round", "ends_at", "seconds_left", "time_up", "jiang_done",
                                                      "grace_until", "grace_open"}
