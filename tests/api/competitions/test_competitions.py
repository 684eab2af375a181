"""Competitions through the HTTP API (API.md: Competitions), on SQLite and PostgreSQL.

A competition of 9 (so that one sits out) or 8 entrants is created, entered, drawn, started, scored at its
tables as ordinary evenings and ended; then every refusal: no token, a token that is not the
competition's, the read-only token on a change, a name entered twice, drawing while a round is open, a
hand after the round ended past the grace, a table reopening itself; each in the reader's language.

Worked amounts (Taiwanese 100 底 / 20 per 台, quick entry, the dealer, seat 東, not involved): a 3-台 win
on a discard is 100 + 20 × 3 = 160 from the discarder. At a table that played one such hand (南 wins
from 西), placement points 4/2/1/0 go: 南 4; 東 and 北 level at 0 share places 2-3, (2 + 1) / 2 = 3/2
each; 西 0.
"""
import datetime

import pytest

from ledger import competition_store
from tests.api.groups.groups import Club
from tests.api.sessions.tables import discard

NAMES = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
BODY = {"name": "Spring cup", "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "rounds": 2,
        "round": {"minutes": 90, "until": "jiang", "grace": 5}, "ranking": {"placement_points": [4, 2, 1, 0]},
        "seating": "swiss"}
ZH_HANT = {"Accept-Language": "zh-TW"}
ZH_HANS = {"Accept-Language": "zh-CN"}


class Cup:
    """A competition created through the API, with its two tokens."""

    def __init__(self, client, **changes):
        self.client = client
        response = client.post("/api/competitions", json={**BODY, **changes})
        assert response.status_code == 201, response.get_json()
        self.created = response.get_json()
        self.path = f"/api/competitions/{self.created['id']}"
        self.tokens = {"organizer": self.created["organizer_token"], "read": self.created["read_token"]}

    def headers(self, level="organizer", extra=None):
        return {"Authorization": f"Bearer {self.tokens[level]}", **(extra or {})}

    def post(self, suffix, json=None, level="organizer", extra=None):
        return self.client.post(f"{self.path}{suffix}", json=json if json is not None else {},
                                headers=self.headers(level, extra))

    def get(self, suffix="", level="read", extra=None):
        return self.client.get(f"{self.path}{suffix}", headers=self.headers(level, extra))

    def ok(self, response, status=200):
        assert response.status_code == status, response.get_json()
        return response.get_json()


def entered(client, names=NAMES, **changes) -> Cup:
    cup = Cup(client, **changes)
    cup.ok(cup.post("/entrants", {"names": names}), 201)
    return cup


def test_a_competition_is_created_entered_drawn_and_shown_to_each_token(client):
    cup = entered(client)
    assert cup.created["access"] == "organizer" and cup.created["rounds"] == 2
    assert cup.created["round"] == {"until": "jiang", "minutes": 90, "grace": 5}
    drawn = cup.ok(cup.post("/rounds", {"seed": 7}), 201)
    assert drawn["number"] == 1 and drawn["seed"] == "7"
    seated = [name for table in drawn["tables"] for name in table["seats"]]
    assert len(drawn["tables"]) == 2 and len(drawn["sitting_out"]) == 1
    assert sorted(seated + drawn["sitting_out"]) == sorted(NAMES)
    table = drawn["tables"][0]
    evening = client.get(f"/api/sessions/{table['session']}", headers={"Authorization": f"Bearer {table['token']}"})
    assert evening.status_code == 200 and evening.get_json()["players"] == table["seats"]
    assert evening.get_json()["name"] == "Spring cup: round 1, table 1"
    read = client.get(f"/api/sessions/{table['session']}",
                      headers={"Authorization": f"Bearer {table['read_token']}"}).get_json()
    assert read["access"] == "read"
    shown = cup.ok(cup.get())
    assert shown["access"] == "read" and shown["current_round"] == 1
    assert "token" not in shown["drawn"][0]["tables"][0]
    organizer = cup.ok(cup.get(level="organizer"))
    assert organizer["drawn"][0]["tables"][0]["token"] == table["token"]  # the organiser sees the links again


def test_a_round_is_played_ended_and_ranked_by_placement_points(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    started = cup.ok(cup.post("/rounds/1/start"))
    assert started["started_at"] is not None and 0 < started["seconds_left"] <= 90 * 60
    east, south, west, north = drawn["tables"][0]["seats"]
    auth = {"Authorization": f"Bearer {drawn['tables'][0]['token']}"}
    hand = client.post(f"/api/sessions/{drawn['tables'][0]['session']}/hands", json=discard(south, west, 3),
                       headers=auth)
    assert hand.status_code == 201 and hand.get_json()["payments"][south] == 160
    standings = cup.ok(cup.get("/standings"))
    by_name = {row["name"]: row for row in standings}
    assert (by_name[south]["rank"], by_name[south]["points"], by_name[south]["net"]) == (1, 4, 160)
    assert (by_name[east]["points"], by_name[east]["points_exact"]) == (1.5, "3/2")
    assert by_name[north]["rank"] == by_name[east]["rank"] == 2
    assert (by_name[west]["rank"], by_name[west]["net"]) == (8, -160)  # below the unplayed table's 0 points, 0 net
    other = drawn["tables"][1]["seats"]
    assert all(by_name[name]["points"] == 0 and by_name[name]["rounds"][0]["played"] is False for name in other)
    assert by_name[south]["rounds"][0]["opponents"] == [east, west, north]
    ended = cup.ok(cup.post("/rounds/1/end"))
    assert ended["ended_at"] is not None
    shown = cup.ok(cup.get())
    assert all(table["closed"] for table in shown["drawn"][0]["tables"]) and shown["current_round"] is None
    second = cup.ok(cup.post("/rounds"), 201)
    assert second["number"] == 2
    first_tables = [set(table["seats"]) for table in drawn["tables"]]
    for table in second["tables"]:  # 8 entrants from 2 tables: two of each first table meet again, no more
        assert sorted(len(set(table["seats"]) & before) for before in first_tables) == [2, 2]


def test_every_refusal_of_a_token(client):
    cup = entered(client)
    assert cup.client.get(cup.path).status_code == 401
    foreign = cup.client.get(cup.path, headers={"Authorization": "Bearer not-its-token", **ZH_HANT})
    assert foreign.status_code == 403
    assert foreign.get_json()["message"] == "這個憑證打不開這個比賽：請向主辦人要連結。"
    for suffix in ("/entrants", "/rounds", "/rounds/1/start", "/rounds/1/end"):
        refused = cup.post(suffix, {"names": ["Zed"]} if suffix == "/entrants" else {}, level="read", extra=ZH_HANS)
        assert refused.status_code == 403, suffix
        assert refused.get_json()["message"] == "这是比赛的只读链接：可以看，不能改。"
    withdraw = client.delete(f"{cup.path}/entrants/Amy", headers=cup.headers("read"))
    assert withdraw.status_code == 403
    assert client.get("/api/competitions/" + "0" * 40, headers=cup.headers()).status_code == 404
    assert [e["name"] for e in cup.ok(cup.get())["entrants"]] == NAMES  # nothing changed


def test_an_entrant_is_entered_once(client):
    cup = entered(client, ["Amy", "Ben"])
    twice = cup.post("/entrants", {"names": ["Cat", "Amy"]}, extra=ZH_HANT)
    assert twice.status_code == 422 and twice.get_json()["field"] == "names[1]"
    assert twice.get_json()["message"] == "'Amy' 已經報名了：每人只能報名一次。"
    same_request = cup.post("/entrants", {"names": ["Cat", "Cat"]})
    assert same_request.status_code == 422
    assert same_request.get_json()["message"] == "'Cat' is entered already: each entrant is entered once."
    look_alike = cup.post("/entrants", {"names": ["ＡＭＹ"]})
    assert look_alike.status_code == 422
    assert [e["name"] for e in cup.ok(cup.get())["entrants"]] == ["Amy", "Ben"]


def test_no_round_is_drawn_while_one_is_open_nor_past_the_last(client):
    cup = entered(client, NAMES[:8], rounds=1)
    cup.ok(cup.post("/rounds"), 201)
    again = cup.post("/rounds", extra=ZH_HANT)
    assert again.status_code == 409 and again.get_json()["message"] == "第 1 輪還沒結束：先結束它，再抽下一輪。"
    cup.ok(cup.post("/rounds/1/start"))
    assert cup.post("/rounds/1/start").status_code == 409
    assert cup.post("/rounds/2/start").status_code == 404
    cup.ok(cup.post("/rounds/1/end"))
    assert cup.post("/rounds/1/end").status_code == 409
    past = cup.post("/rounds")
    assert past.status_code == 409 and past.get_json()["message"] == "All 1 rounds of the competition are drawn already."
    assert len(cup.ok(cup.get())["drawn"]) == 1


def test_too_few_to_play_is_refused_in_the_readers_language(client):
    cup = entered(client, ["Amy", "Ben", "Cat"])
    refused = cup.post("/rounds", extra=ZH_HANS)
    assert refused.status_code == 422
    assert refused.get_json()["message"] == "这一轮只有 3 位参赛者可排：至少要 4 位才开得了一桌。"
    assert cup.ok(cup.get())["drawn"] == []


def play_one_round(client, cup, grace):
    drawn = cup.ok(cup.post("/rounds"), 201)
    table = drawn["tables"][0]
    path, auth = f"/api/sessions/{table['session']}", {"Authorization": f"Bearer {table['token']}"}
    east, south, west, north = table["seats"]
    cup.ok(cup.post("/rounds/1/end", {"grace": grace}))
    return path, auth, (east, south, west, north)


def test_the_hand_in_play_may_be_recorded_within_the_grace_once(client):
    cup = entered(client, NAMES[:8])
    path, auth, (east, south, west, north) = play_one_round(client, cup, grace=5)
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=auth).status_code == 201
    second = client.post(f"{path}/hands", json=discard(north, west, 1), headers={**auth, **ZH_HANT})
    assert second.status_code == 409
    assert second.get_json()["message"] == "這一輪已經結束，這桌已經收桌：只有主辦人可以重開來更正。"
    assert client.get(path, headers=auth).get_json()["totals"][south] == 160


def test_a_hand_after_the_grace_is_refused(client, app):
    cup = entered(client, NAMES[:8])
    path, auth, (east, south, west, north) = play_one_round(client, cup, grace=0)
    late = client.post(f"{path}/hands", json=discard(south, west, 3), headers=auth)
    assert late.status_code == 409 and "round has ended" in late.get_json()["message"]
    assert client.get(path, headers=auth).get_json()["next_hand"] == 1


def test_a_table_cannot_reopen_itself_but_the_organiser_can_for_a_correction(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds"), 201)
    table = drawn["tables"][0]
    path, auth = f"/api/sessions/{table['session']}", {"Authorization": f"Bearer {table['token']}"}
    east, south, west, north = table["seats"]
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=auth).status_code == 201
    cup.ok(cup.post("/rounds/1/end", {"grace": 0}))
    assert client.post(f"{path}/reopen", headers=auth).status_code == 403
    before = {row["name"]: row for row in cup.ok(cup.get("/standings"))}
    assert before[south]["points"] == 4
    shown = cup.ok(cup.post(f"/tables/{table['session']}/reopen"))
    assert shown["drawn"][0]["tables"][0]["closed"] is False
    late = client.put(f"{path}/hands/1", json=discard(north, west, 3), headers=auth)
    assert late.status_code == 409  # past the grace the correction is the organiser's
    corrected = client.put(f"{path}/hands/1", json=discard(north, west, 3), headers=cup.headers())
    assert corrected.status_code == 200
    assert client.post(f"{path}/close", headers=cup.headers()).status_code == 200
    after = {row["name"]: row for row in cup.ok(cup.get("/standings"))}
    assert (after[north]["points"], after[north]["net"]) == (4, 160)
    assert (after[south]["points_exact"], after[south]["net"]) == ("3/2", 0)
    audit = client.get(f"{path}/audit", headers=auth).get_json()
    assert [line["action"] for line in audit] == ["close", "reopen", "correct", "close"]


def test_withdrawn_and_late_entrants_play_the_rounds_they_are_in(client):
    cup = entered(client, NAMES[:8], rounds=3)
    cup.ok(cup.post("/rounds"), 201)
    withdrawn = cup.ok(client.delete(f"{cup.path}/entrants/Amy", headers=cup.headers()))
    assert withdrawn["withdrawn_from"] == 2
    late = cup.ok(cup.post("/entrants", {"names": ["Zed"]}), 201)["entrants"][0]
    assert (late["entrant"], late["first_round"]) == (9, 2)
    cup.ok(cup.post("/rounds/1/end"))
    second = cup.ok(cup.post("/rounds"), 201)
    seated = {name for table in second["tables"] for name in table["seats"]}
    assert "Amy" not in seated and "Amy" not in second["sitting_out"] and "Zed" in seated
    assert client.delete(f"{cup.path}/entrants/Nobody", headers=cup.headers()).status_code == 404
    standings = {row["name"]: row for row in cup.ok(cup.get("/standings"))}
    assert standings["Amy"]["withdrawn"] is True and len(standings["Amy"]["rounds"]) == 1


def test_a_groups_competition_enters_members_and_its_tables_are_the_groups_evenings(client):
    club = Club.with_members(client, NAMES[:8])
    refused = client.post("/api/competitions", json={**BODY, "group": club.id}, headers=club.headers("read"))
    assert refused.status_code == 403
    created = client.post("/api/competitions", json={**BODY, "group": club.id}, headers=club.headers())
    assert created.status_code == 201
    cup_path = f"/api/competitions/{created.get_json()['id']}"
    organizer = {"Authorization": f"Bearer {created.get_json()['organizer_token']}"}
    stranger = client.post(f"{cup_path}/entrants", json={"names": ["Zed"]}, headers=organizer)
    assert stranger.status_code == 422 and stranger.get_json()["field"] == "names[0]"
    assert client.post(f"{cup_path}/entrants", json={"names": NAMES[:8]}, headers=organizer).status_code == 201
    drawn = client.post(f"{cup_path}/rounds", json={}, headers=organizer).get_json()
    evenings = club.get().get_json()["evenings"]
    assert sorted(evening["id"] for evening in evenings) == sorted(table["session"] for table in drawn["tables"])


def test_a_groups_competition_table_counts_in_the_groups_standings(client):
    """A group of eight members (Amy … Hal); an ordinary evening of the group first: Ben wins 1 台 on Cat's
    discard (Amy deals, not involved): Ben +120, Cat −120, Amy and Dan 0.

    Then the group's competition enters the eight, numbered 1 to 8 in that order; round 1 with seed 3 is
    ``random.Random(3).shuffle`` of 1 … 8 = [1, 6, 8, 3, 2, 7, 5, 4], no history, so the tables keep that order
    (tests/api/competitions/test_substitutes_and_cut.py): table 1 東 Amy, 南 Fay, 西 Hal, 北 Cat; table 2 東 Ben,
    南 Gus, 西 Eve, 北 Dan. Table 1: Fay wins 3 台 on Hal's discard, +160 / −160. Table 2: Dan wins 1 台 on Eve's
    discard, +120 / −120 (the dealers, Amy and Ben, not involved).

    The group's standings (every evening of the group, tables too; best net first, equals by name): Fay +160
    (1 evening, 1 hand, 1 win); Ben 120 + 0 = +120 (2 evenings, 2 hands, 1 win); Dan 0 + 120 = +120 (2, 2, 1);
    Amy 0 + 0 (2, 2, 0); Gus 0 (1, 1, 0); Cat −120 + 0 = −120 (2, 2, 0, 1 deal-in); Eve −120 (1, 1, 0, 1 deal-in);
    Hal −160 (1, 1, 0, 1 deal-in).
    """
    club = Club.with_members(client, NAMES[:8])
    club.evening(["Amy", "Ben", "Cat", "Dan"]).win("Ben", "Cat")
    created = client.post("/api/competitions", json={**BODY, "group": club.id}, headers=club.headers())
    assert created.status_code == 201, created.get_json()
    cup_path = f"/api/competitions/{created.get_json()['id']}"
    organizer = {"Authorization": f"Bearer {created.get_json()['organizer_token']}"}
    assert client.post(f"{cup_path}/entrants", json={"names": NAMES[:8]}, headers=organizer).status_code == 201
    drawn = client.post(f"{cup_path}/rounds", json={"seed": 3}, headers=organizer).get_json()
    first, second = drawn["tables"]
    assert (first["seats"], second["seats"]) == (["Amy", "Fay", "Hal", "Cat"], ["Ben", "Gus", "Eve", "Dan"])
    for table, hand in ((first, discard("Fay", "Hal", 3)), (second, discard("Dan", "Eve", 1))):
        answer = client.post(f"/api/sessions/{table['session']}/hands", json=hand,
                             headers={"Authorization": f"Bearer {table['token']}"})
        assert answer.status_code == 201, answer.get_json()
    rows = club.standings()["standings"]
    assert [(row["name"], row["net"], row["evenings"], row["hands"], row["wins"], row["deal_ins"]) for row in rows] \
        == [("Fay", 160, 1, 1, 1, 0), ("Ben", 120, 2, 2, 1, 0), ("Dan", 120, 2, 2, 1, 0), ("Amy", 0, 2, 2, 0, 0),
            ("Gus", 0, 1, 1, 0, 0), ("Cat", -120, 2, 2, 0, 1), ("Eve", -120, 1, 1, 0, 1), ("Hal", -160, 1, 1, 0, 1)]
    assert club.balances()["balances"] == {"Fay": 160, "Ben": 120, "Dan": 120, "Amy": 0, "Gus": 0, "Cat": -120,
                                           "Eve": -120, "Hal": -160}


def test_the_grace_and_the_round_are_stored_as_given(app, client):
    cup = entered(client, NAMES[:8])
    cup.ok(cup.post("/rounds"), 201)
    ended = cup.ok(cup.post("/rounds/1/end", {"grace": 3}))
    ended_at = datetime.datetime.fromisoformat(ended["ended_at"])
    assert datetime.datetime.fromisoformat(ended["grace_until"]) - ended_at == datetime.timedelta(minutes=3)
    with app.app_context():
        from api.http.db import get_db
        rounds = competition_store.list_rounds(get_db(), cup.created["id"])
    assert [r.number for r in rounds] == [1]


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_the_served_spec_documents_the_competition_paths(client):
    spec = client.get("/api/openapi.json").get_json()
    for path in ("/api/competitions", "/api/competitions/{competition_id}",
                 "/api/competitions/{competition_id}/entrants",
                 "/api/competitions/{competition_id}/entrants/{entrant}",
                 "/api/competitions/{competition_id}/rounds",
                 "/api/competitions/{competition_id}/rounds/{number}/start",
                 "/api/competitions/{competition_id}/rounds/{number}/end",
                 "/api/competitions/{competition_id}/standings"):
        assert path in spec["paths"], path
    standings = spec["paths"]["/api/competitions/{competition_id}/standings"]["get"]["responses"]["200"]
    assert "then net money" in standings["description"]


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_creating_competitions_is_rate_limited_per_address_and_entrants_bounded(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_CREATE_COMPETITION="1 per day", MAX_ENTRANTS=3)
    client = app.test_client()
    cup = Cup(client)
    again = client.post("/api/competitions", json=BODY, headers=ZH_HANT)
    assert again.status_code == 429 and "Retry-After" in again.headers
    assert again.get_json()["message"].startswith("您的位址建立比賽的請求太多")
    too_many = cup.post("/entrants", {"names": ["Amy", "Ben", "Cat", "Dan"]})
    assert too_many.status_code == 422 and too_many.get_json()["field"] == "names"
    cup.ok(cup.post("/entrants", {"names": ["Amy", "Ben"]}), 201)
    past = cup.post("/entrants", {"names": ["Cat", "Dan"]}, extra=ZH_HANS)
    assert past.status_code == 422 and past.get_json()["message"] == "一个比赛最多 3 位参赛者（含替补）。"
