"""House rules over HTTP (API.md "House rules", RULES.md §8): evenings, 詐胡, changes, score, rule sets, export.

The evenings are the hand-worked ``fixtures/evening_house_rules_*.json`` (see
``tests/ledger/test_house_rules.py``), posted hand by hand.
"""
import csv
import io
import json
from pathlib import Path

import pytest

from tests.api.sessions.tables import assert_matches_replay, assert_rejected
from tests.reports import poppler

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
EVENINGS = ["evening_house_rules_taiwan.json", "evening_house_rules_taiwan_zz.json",
            "evening_house_rules_shanghai.json"]
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
ALL_CHOWS = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}  # 門清 1 + 平胡 2 on a discard


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class Evening:
    """A session with house rules, through the API."""

    def __init__(self, client, ruleset="taiwan", house_rules=None, stakes=None, options=None):
        self.client = client
        body = {"name": "House rules", "ruleset": ruleset, "players": PLAYERS,
                "stakes": stakes or ({"base": 10} if ruleset == "shanghai" else {"base": 100, "per_tai": 20}),
                "options": options or {}, "house_rules": house_rules}
        response = client.post("/api/sessions", json=body)
        assert response.status_code == 201, response.get_json()
        self.created = response.get_json()
        self.id, self.token = self.created["id"], self.created["token"]
        self.path = f"/api/sessions/{self.id}"
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def hand(self, body):
        return self.client.post(f"{self.path}/hands", json=body, headers=self.headers)

    def house_rules(self, rules):
        return self.client.put(f"{self.path}/house_rules", json=rules, headers=self.headers)

    def session(self):
        return self.get()

    def get(self, suffix=""):
        response = self.client.get(self.path + suffix, headers=self.headers)
        assert response.status_code == 200
        return response.get_json() if response.is_json else response.data


def record(client, name):
    evening = load(name)
    table = Evening(client, evening["ruleset"], evening["house_rules"], evening["stakes"], evening["options"])
    for event in evening["events"]:
        response = table.hand(event["hand"])
        assert response.status_code == 201, response.get_json()
        actual, expected = response.get_json(), event["expect"]
        assert actual["payments"] == expected["payments"], event["why"]
        assert {key: actual["state"][key] for key in expected["state"]} == expected["state"]
        breakdowns = {s["player"]: {p["id"]: p["value"] for p in s["score"]["patterns"]} for s in actual["scores"]}
        assert breakdowns == expected.get("patterns", {})
    return evening, table


@pytest.mark.parametrize("name", EVENINGS)
def test_the_evening_over_http_pays_as_worked_by_hand(app, client, name):
    evening, table = record(client, name)
    session = table.get()
    assert session["totals"] == evening["totals"]
    assert session["house_rules"] == evening["house_rules"]  # kept in full, as entered (already canonical)
    assert_matches_replay(app, table)


@pytest.mark.parametrize("name", EVENINGS)
def test_export_carries_the_house_rules_and_import_replays_identically(client, name):
    evening, table = record(client, name)
    document = table.get("/export")
    assert document["house_rules"] == evening["house_rules"]
    imported = client.post("/api/sessions/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["house_rules"] == evening["house_rules"] and copy["totals"] == evening["totals"]
    hands = client.get(f"/api/sessions/{copy['id']}/hands",
                       headers={"Authorization": f"Bearer {copy['token']}"}).get_json()
    assert [(h["payments"], h["scores"]) for h in hands] == [(h["payments"], h["scores"]) for h in table.get("/hands")]


def test_an_import_without_its_house_rules_does_not_add_up(client):
    evening, table = record(client, EVENINGS[0])
    document = table.get("/export")
    del document["house_rules"]
    assert_rejected(client.post("/api/sessions/import", json=document), "totals", "not the document's")


def test_a_false_win_is_listed_as_its_own_kind_in_the_csv_and_the_pdf(client):
    _, table = record(client, EVENINGS[0])
    rows = list(csv.DictReader(io.StringIO(table.get("/hands.csv").decode("utf-8-sig"))))
    hand_3 = {row["player"]: (row["role"], row["outcome"], row["payment"]) for row in rows if row["hand"] == "3"}
    assert hand_3 == {"Amy": ("", "false_win", "240"), "Ben": ("false_win", "false_win", "-720"),
                      "Cat": ("", "false_win", "240"), "Dan": ("", "false_win", "240")}
    text = "\n".join(poppler.pages(table.get("/report.pdf")))
    assert "Ben 詐胡" in text and "Amy 詐胡" in text
    assert "門清 1→2台" in text and "不計 斷么九" in text and "加計 獨聽 1台" in text and "連莊 1+n" in text
    english = "\n".join(poppler.pages(table.get("/report.pdf?lang=en")))
    assert "concealed hand (門清) 1→2台" in english and "off all simples (斷么九)" in english
    assert "on single wait (獨聽) 1台" in english and "連莊 1+n" in english
    # statistics: Amy played 6, won 0, self-drew 0, dealt in 0, one 詐胡; a false win is no win, no deal-in
    assert any(line.split()[:6] == ["Amy", "6", "0", "0", "0", "1"] for line in text.splitlines())


# -- changing an evening's house rules ---------------------------------------------------


def test_house_rules_are_set_freely_before_the_first_hand(client):
    table = Evening(client)
    response = table.house_rules({"values": {"all_chows": 4}})
    assert response.status_code == 200
    assert response.get_json()["house_rules"] == {"values": {"all_chows": 4}}
    assert table.get("/audit") == []
    win = table.hand({"winners": [{"player": "Ben", "hand": ALL_CHOWS, "win": {}}], "by": "discard",
                      "discarder": "Cat"}).get_json()
    assert win["payments"]["Cat"] == -(100 + 20 * (1 + 4))


def test_changing_the_house_rules_after_hands_replays_them_and_is_audited(client):
    table = Evening(client, house_rules={"values": {"all_chows": 4}, "dealer_extra": "1+n"})
    table.hand({"winners": [{"player": "Ben", "hand": ALL_CHOWS, "win": {}}], "by": "discard", "discarder": "Cat"})
    table.hand({"false_win": "Amy"})
    response = table.house_rules({"off": ["all_chows"], "false_win": {"amount": 50}})
    assert response.status_code == 200, response.get_json()
    # hand 1 now 門清 1 台: Cat pays 100 + 20 = 120; hand 2 (dealer Ben, streak 0): Amy pays 50 to each
    assert response.get_json()["totals"] == {"Amy": -150, "Ben": 170, "Cat": -70, "Dan": 50}
    assert [h["payments"] for h in table.get("/hands")] == [
        {"Amy": 0, "Ben": 120, "Cat": -120, "Dan": 0}, {"Amy": -150, "Ben": 50, "Cat": 50, "Dan": 50}]
    (audit,) = table.get("/audit")
    assert (audit["action"], audit["number"], audit["before"], audit["after"]) == (
        "house_rules", None, {"values": {"all_chows": 4}, "dealer_extra": "1+n"},
        {"off": ["all_chows"], "false_win": {"amount": 50}})
    copy = client.post("/api/sessions/import", json=table.get("/export"))
    assert copy.status_code == 201 and copy.get_json()["totals"] == {"Amy": -150, "Ben": 170, "Cat": -70, "Dan": 50}


def test_a_change_of_the_house_rules_is_one_revision_and_refused_when_stale_read_only_or_closed(client):
    table = Evening(client)
    assert table.hand({"draw": True, "reason": "exhausted"}).status_code == 201  # revision 2
    before = (table.session(), table.get("/hands"), table.get("/audit"))
    put = f"{table.path}/house_rules"
    stale = client.put(put, json={"dealer_extra": "1+n"}, headers={**table.headers, "If-Match": '"1"'})
    assert stale.status_code == 412 and stale.get_json()["revision"] == 2
    # A bad body is refused for what it is, whatever the revision it was sent against (as a schema would).
    bad = client.put(put, json={"off": [None]}, headers={**table.headers, "If-Match": '"1"'})
    assert bad.status_code == 422 and "off" in bad.get_json()["message"], bad.get_json()
    read_only = {"Authorization": f"Bearer {table.created['read_token']}"}
    assert client.put(put, json={"dealer_extra": "1+n"}, headers=read_only).status_code == 403
    assert (table.session(), table.get("/hands"), table.get("/audit")) == before
    changed = client.put(put, json={"dealer_extra": "1+n"}, headers={**table.headers, "If-Match": '"2"'})
    assert changed.status_code == 200, changed.get_json()
    assert (changed.headers["ETag"], changed.get_json()["revision"]) == ('"3"', 3)
    assert changed.get_json()["house_rules"] == {"dealer_extra": "1+n"}
    same = client.put(put, json={"dealer_extra": "1+n"}, headers=table.headers)  # the rules it has: no change
    assert same.get_json()["revision"] == 3
    assert client.post(f"{table.path}/close", headers=table.headers).status_code == 200
    closed = client.put(put, json={}, headers=table.headers)
    assert closed.status_code == 409 and table.session()["house_rules"] == {"dealer_extra": "1+n"}


def test_the_export_carries_house_rules_changes_but_not_closing_and_reopening(client):
    table = Evening(client)
    table.hand({"false_win": "Cat"})  # Cat pays a self-drawn 8 台: Amy (dealing) 280, Ben and Dan 260
    assert table.house_rules({"false_win": {"amount": 100}}).status_code == 200  # now 100 to each
    for action in ("close", "reopen"):
        assert client.post(f"{table.path}/{action}", headers=table.headers).status_code == 200
    assert [line["action"] for line in table.get("/audit")] == ["house_rules", "close", "reopen"]
    document = table.get("/export")
    assert [(line["action"], line["number"], line["before"], line["after"]) for line in document["audit"]] == [
        ("house_rules", None, {}, {"false_win": {"amount": 100}})]
    copy = client.post("/api/sessions/import", json=document)
    assert copy.status_code == 201, copy.get_json()
    assert copy.get_json()["totals"] == {"Amy": 100, "Ben": 100, "Cat": -300, "Dan": 100}
    audit = client.get(f"/api/sessions/{copy.get_json()['id']}/audit",
                       headers={"Authorization": f"Bearer {copy.get_json()['token']}"}).get_json()
    assert [line["action"] for line in audit] == ["house_rules"]


def test_a_bad_change_of_the_house_rules_changes_nothing(client):
    table = Evening(client, house_rules={"values": {"all_chows": 4}})
    table.hand({"winners": [{"player": "Ben", "hand": ALL_CHOWS, "win": {}}], "by": "discard", "discarder": "Cat"})
    before = table.get(), table.get("/hands")
    assert_rejected(table.house_rules({"values": {"all_chows": -1}}), "house_rules.values.all_chows", "0 to 1000")
    assert_rejected(table.house_rules(["all_chows"]), "house_rules", "must be the house rules, an object")
    null = client.put(f"{table.path}/house_rules", data="null", content_type="application/json", headers=table.headers)
    assert_rejected(null, "house_rules", "must be the house rules, an object")
    assert (table.get(), table.get("/hands")) == before
    assert table.get("/audit") == []


def test_a_change_that_makes_a_recorded_hand_impossible_is_refused_naming_it(client):
    table = Evening(client, "taiwan_zz")
    table.hand({"winners": [{"player": "Cat", "tai": 8, "event": "eight_flowers"}], "by": "self_draw"})
    before = table.get()
    assert_rejected(table.house_rules({"off": ["eight_flowers"]}), "winners[0].event", "Hand 1",
                    "all eight flowers (八仙過海) is switched off at this table")
    assert table.get() == before


@pytest.mark.parametrize(("language", "message"), [
    ("en", "all eight flowers (八仙過海) is switched off at this table: its house rules do not play it."),
    ("zh-Hant", "本桌家規已關閉「八仙過海」，不計這一項。"),
    ("zh-Hans", "本桌家规已关闭「八仙过海」，不计这一项。"),
])
def test_a_flower_event_the_table_switched_off_is_refused_as_switched_off_in_the_readers_language(
        client, language, message):
    """Not "'eight_flowers' is not an event of taiwan_zz": the rule set has it, this table switched it off."""
    table = Evening(client, "taiwan_zz", {"off": ["eight_flowers"]})
    headers = {**table.headers, "Accept-Language": language}
    for winner in ({"player": "Cat", "tai": 8, "event": "eight_flowers"},
                   {"player": "Cat", "hand": {"flowers": "12345678f"}, "win": {"event": "eight_flowers"}}):
        response = client.post(f"{table.path}/hands", json={"winners": [winner], "by": "self_draw"},
                               headers=headers)
        field = "winners[0].event" if "tai" in winner else "winners[0].win.event"
        assert response.status_code == 422 and response.get_json()["message"] == message
        assert response.get_json()["field"] == field
    assert table.get("/hands") == []


def test_a_bad_house_rule_at_the_start_is_refused(client):
    body = {"name": "x", "ruleset": "shanghai", "players": PLAYERS, "stakes": {"base": 10},
            "house_rules": {"dealer_extra": "1+n"}}
    assert_rejected(client.post("/api/sessions", json=body), "house_rules.dealer_extra", "taiwan and taiwan_zz only")


def test_a_false_win_names_a_seated_player(client):
    table = Evening(client)
    assert_rejected(table.hand({"false_win": "Eve"}), "false_win", "not seated")
    assert_rejected(table.hand({"false_win": "Amy", "by": "discard"}), "by", "only the offender")


def test_a_false_win_names_its_offender_as_every_name_is_normalised(client):
    table = Evening(client)
    response = table.hand({"false_win": " Cat\u0020"})
    assert response.status_code == 201, response.get_json()
    hand = response.get_json()
    # Trimmed, the name is Cat's: she pays a self-drawn 8 台 to each, dealer Amy (streak 0) 100 + 20 × 9 = 280,
    # Ben and Dan 100 + 20 × 8 = 260; the body is kept with the seated name.
    assert hand["body"] == {"false_win": "Cat"}
    assert hand["payments"] == {"Amy": 280, "Ben": 260, "Cat": -800, "Dan": 260}


# -- /api/score and /api/rulesets ----------------------------------------------------------


def test_score_under_house_rules(client):
    response = client.post("/api/score", json={"ruleset": "taiwan", "hand": ALL_CHOWS, "seat_wind": "S",
                                               "house_rules": {"values": {"all_chows": 5}, "on": ["single_wait"]}})
    assert response.status_code == 200
    assert [(p["id"], p["value"]) for p in response.get_json()["patterns"]] == [("concealed", 1), ("all_chows", 5)]
    assert response.get_json()["total"] == 6


def test_score_refuses_a_bad_house_rule_naming_it(client):
    response = client.post("/api/score", json={"ruleset": "taiwan", "hand": ALL_CHOWS,
                                               "house_rules": {"on": ["big_hanging"]}})
    assert_rejected(response, "house_rules.on[0]", "unknown pattern 'big_hanging'")


def test_rulesets_say_what_house_rules_may_change(client):
    described = {r["id"]: r["house_rules"] for r in client.get("/api/rulesets").get_json()}
    taiwan, zz, shanghai = described["taiwan"], described["taiwan_zz"], described["shanghai"]
    assert {p["id"]: p["value"] for p in taiwan["on"]}["single_wait"] == 1
    assert {p["id"]: p["value"] for p in taiwan["on"]}["half_melded"] == 1
    assert {p["id"]: p["value"] for p in zz["on"]}["pure_straight"] == 1
    assert "no_points" not in zz["values"]["patterns"] and "all_simples" in taiwan["off"]
    assert shanghai["on"] == [] and "dealer_extra" not in shanghai and shanghai["lei_cap"]["default"] == 10
    assert taiwan["dealer_extra"]["allowed"] == ["1+2n", "1+n", "none"] and "lei_cap" not in taiwan
    assert taiwan["false_win"]["default"] == {"as_self_draw": 8}
    assert shanghai["false_win"]["default"] == {"as_self_draw": 10}
    assert "lei_cap" in shanghai["keys"] and "dealer_extra" in taiwan["keys"]
