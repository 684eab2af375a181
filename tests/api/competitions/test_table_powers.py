"""A competition's table token scores its table and nothing more (API.md: Competitions, issue 38 items 1-3).

With a table's own write token, the table's house rules (``POST``/``PUT``), seats, new links, closing and
reopening are refused (403, in the reader's language, nothing changed); the organiser's token does each of
them on every table of the round. A round's grace hand is refused once the next round is drawn (409). The
competition's audit says who (``organizer`` or ``table N of round R``) and the ``X-Client`` the request
sent, cut to 64 characters; a hand recorded after the round ended (the grace hand, or at a table reopened
within its grace) is in it.

Worked amounts (Taiwanese 100 底 / 20 per 台, quick entry, the dealer in no hand: 東 deals the first, 南 the
second, 西 the third): a 3-台 win on a discard is 100 + 20 × 3 = 160, a 1-台 win 100 + 20 = 120, paid by the
discarder.
"""
import pytest

from tests.api.competitions.test_competition_reports import pdf_of, qr_links
from tests.api.competitions.test_competitions import NAMES, ZH_HANS, ZH_HANT, entered
from tests.api.sessions.tables import discard

REFUSED = {
    "en": "At a competition's table only the organiser can do that (house rules, seats, new links, closing and "
          "reopening): this table's link scores its hands.",
    "zh-TW": "比賽的牌桌不能自己做這件事（家規、座位、新連結、收桌和重開都由主辦人來做）：這桌的連結只能記這桌的牌。",
    "zh-CN": "比赛的牌桌不能自己做这件事（家规、座位、新链接、收桌和重开都由主办人来做）：这桌的链接只能记这桌的牌。",
}
RULES = {"dealer_extra": "none"}
# (method, path after the evening's, body, the organiser's status)
POWERS = [("post", "/house_rules", RULES, 201), ("put", "/house_rules", RULES, 200),
          ("post", "/seats", {"seat": 3, "player": "Zed"}, 201), ("post", "/close", None, 200),
          ("post", "/reopen", None, 200), ("post", "/tokens", None, 201)]


def bearer(token, **extra):
    return {"Authorization": f"Bearer {token}", **extra}


def what_a_table_is(client, table) -> tuple:
    """Everything a refused change could have moved: the evening as read, its audit trail."""
    evening = client.get(f"/api/sessions/{table['session']}", headers=bearer(table["read_token"])).get_json()
    audit = client.get(f"/api/sessions/{table['session']}/audit", headers=bearer(table["read_token"])).get_json()
    return (evening["revision"], evening["house_rules"], evening["seat_changes"], evening["state"]["closed"],
            audit)


@pytest.mark.parametrize("language", ["en", "zh-TW", "zh-CN"])
def test_a_tables_token_is_refused_every_organisers_power_and_changes_nothing(client, language):
    cup = entered(client, NAMES[:8])
    table = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][0]
    path = f"/api/sessions/{table['session']}"
    cup.ok(client.post(f"{path}/close", headers=cup.headers()))  # so that reopening has something to reopen
    for method, suffix, body, _ in POWERS:
        before = what_a_table_is(client, table)
        refused = getattr(client, method)(f"{path}{suffix}", json=body,
                                          headers=bearer(table["token"], **{"Accept-Language": language}))
        assert refused.status_code == 403, suffix
        assert refused.get_json()["message"] == REFUSED[language], suffix
        assert what_a_table_is(client, table) == before, suffix
    # a bad body too is refused for the token first: the body is never looked at
    bad = client.put(f"{path}/house_rules", json={"no such key": 1}, headers=bearer(table["token"]))
    assert bad.status_code == 403
    assert client.get(path, headers=bearer(table["token"])).status_code == 200  # it still opens its table


@pytest.mark.parametrize("language, said", [
    ("en", "The organiser has closed this table: only the organiser can reopen it."),
    ("zh-TW", "主辦人已經把這桌收桌：只有主辦人可以重開。")])
def test_a_table_its_organiser_closed_mid_round_is_told_only_the_organiser_reopens_it(client, language, said):
    cup = entered(client, NAMES[:8])
    table = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][0]
    path = f"/api/sessions/{table['session']}"
    cup.ok(client.post(f"{path}/close", headers=cup.headers()))
    before = what_a_table_is(client, table)
    refused = client.post(f"{path}/hands", json=discard(table["seats"][1], table["seats"][2], 3),
                          headers=bearer(table["token"], **{"Accept-Language": language}))
    assert refused.status_code == 409
    assert refused.get_json()["message"] == said  # not "reopen it to change it", which this link cannot
    assert what_a_table_is(client, table) == before


def test_the_organisers_token_does_each_of_them_on_every_table(client):
    cup = entered(client, NAMES[:8])
    tables = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"]
    for table in tables:
        path = f"/api/sessions/{table['session']}"
        shown = cup.ok(client.get(path, headers=cup.headers()))
        assert (shown["access"], shown["competition"]["table"]) == ("organizer", table["table"])
        for method, suffix, body, status in POWERS:
            if suffix == "/reopen":
                cup.ok(client.post(f"{path}/close", headers=cup.headers()))
            done = getattr(client, method)(f"{path}{suffix}", json=body, headers=cup.headers())
            assert done.status_code == status, (suffix, done.get_json())
        evening = client.get(path, headers=cup.headers()).get_json()
        assert evening["house_rules"]["dealer_extra"] == "none" and evening["state"]["closed"] is False
        assert [change["player"] for change in evening["seat_changes"]] == ["Zed"]
        assert evening["state"]["seats"][3] == "Zed"


def test_new_links_for_a_table_are_shown_to_the_organiser_and_on_its_card_and_the_old_ones_retired(client):
    cup = entered(client, NAMES[:8])
    table = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][1]
    path = f"/api/sessions/{table['session']}"
    renewed = cup.ok(client.post(f"{path}/tokens", headers=cup.headers()), 201)
    assert client.get(path, headers=bearer(table["token"])).status_code == 401
    assert client.get(path, headers=bearer(table["read_token"])).status_code == 401
    shown = cup.ok(cup.get(level="organizer"))["drawn"][0]["tables"][1]
    assert (shown["token"], shown["read_token"]) == (renewed["token"], renewed["read_token"])
    assert cup.ok(client.get(path, headers=bearer(renewed["token"])))["access"] == "write"
    hand = client.post(f"{path}/hands", json=discard(shown["seats"][1], shown["seats"][2], 3),
                       headers=bearer(renewed["token"]))
    assert hand.status_code == 201
    assert client.post(f"{path}/tokens", headers=bearer(renewed["token"])).status_code == 403
    other = cup.ok(cup.get(level="organizer"))["drawn"][0]["tables"][0]
    assert client.get(f"/api/sessions/{other['session']}", headers=bearer(other["token"])).status_code == 200
    cards = qr_links(pdf_of(client.get(f"{cup.path}/tables.pdf?round=1", headers=cup.headers())))
    assert cards[1].endswith(f"#s={table['session']}&t={renewed['token']}&r={renewed['read_token']}")
    assert cards[0].endswith(f"#s={other['session']}&t={other['token']}&r={other['read_token']}")


def test_a_grace_hand_is_refused_once_the_next_round_is_drawn(client):
    cup = entered(client, NAMES[:8], rounds=3)
    first, second = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"]
    cup.ok(cup.post("/rounds/1/end", {"grace": 30}))
    east, south, west, north = first["seats"]
    in_grace = client.post(f"/api/sessions/{first['session']}/hands", json=discard(south, west, 3),
                           headers=bearer(first["token"]))
    assert in_grace.status_code == 201  # the grace hand before the next draw is taken
    assert client.get(f"/api/sessions/{second['session']}",
                      headers=bearer(second["token"])).get_json()["competition"]["grace_open"] is True
    cup.ok(cup.post("/rounds", {"seed": 4}), 201)
    standings = cup.ok(cup.get("/standings"))
    east, south, west, north = second["seats"]
    path = f"/api/sessions/{second['session']}"
    refused = client.post(f"{path}/hands", json=discard(north, east, 1), headers=bearer(second["token"], **ZH_HANT))
    assert refused.status_code == 409
    assert refused.get_json()["message"] == "第 2 輪已經抽好位，第 1 輪的成績已定：這桌不能再改（要更正請找主辦人）。"
    assert cup.ok(cup.get("/standings")) == standings
    shown = client.get(path, headers=bearer(second["token"])).get_json()
    assert (shown["next_hand"], shown["competition"]["grace_open"]) == (1, False)


def test_a_table_reopened_within_its_grace_records_and_each_hand_after_the_end_is_audited(client):
    cup = entered(client, NAMES[:8], rounds=2)
    table = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][0]
    east, south, west, north = table["seats"]
    path = f"/api/sessions/{table['session']}"
    phone = bearer(table["token"], **{"X-Client": "Table 1 phone"})
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=phone).status_code == 201
    cup.ok(cup.post("/rounds/1/end", {"grace": 30}, extra={"X-Client": "Olga"}))
    assert client.post(f"{path}/hands", json=discard(north, west, 1), headers=phone).status_code == 201  # grace
    cup.ok(cup.post(f"/tables/{table['session']}/reopen", extra={"X-Client": "Olga"}))
    third = client.post(f"{path}/hands", json=discard(south, east, 1), headers=phone)
    assert third.status_code == 201 and third.get_json()["number"] == 3
    assert client.post(f"{path}/close", headers=cup.headers("organizer", {"X-Client": "Olga"})).status_code == 200
    trail = [(line["action"], line["who"], line["client"], line["number"], line["after_round_end"])
             for line in cup.ok(cup.get("/audit", level="organizer")) if line["table"] == 1]
    assert trail == [("hand", "table 1 of round 1", "Table 1 phone", 2, True),
                     ("reopen_table", "organizer", "Olga", None, False),
                     ("reopen", "organizer", "Olga", None, True),
                     ("hand", "table 1 of round 1", "Table 1 phone", 3, True),
                     ("close", "organizer", "Olga", None, True)]
    hands = cup.ok(cup.get("/audit", level="organizer"))
    assert next(line for line in hands if line["number"] == 3)["after"] == discard(south, east, 1)
    # 南 +160 +120, 北 +120, 西 -160 -120, 東 -120
    net = {row["name"]: row["net"] for row in cup.ok(cup.get("/standings"))}
    assert (net[south], net[north], net[west], net[east]) == (280, 120, -280, -120)


def test_the_audit_keeps_64_characters_of_x_client(client):
    label = "Olga the organiser " * 370  # 7,030 characters
    cup = entered(client, NAMES[:8])
    table = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][0]
    east, south, west, north = table["seats"]
    path = f"/api/sessions/{table['session']}"
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=bearer(table["token"])).status_code == 201
    cup.ok(cup.post("/rounds/1/end", {"grace": 0}, extra={"X-Client": label}))
    cup.ok(cup.post(f"/tables/{table['session']}/reopen", extra={"X-Client": label}))
    corrected = client.put(f"{path}/hands/1", json=discard(north, west, 3),
                           headers=cup.headers("organizer", {"X-Client": label}))
    assert corrected.status_code == 200
    trail = cup.ok(cup.get("/audit", level="organizer"))
    assert [line["client"] for line in trail if line["action"] in ("end", "reopen_table", "reopen", "correct")] == [
        "Olga the organiser Olga the organiser Olga the organiser Olga th"] * 4
    evening = client.get(f"{path}/audit", headers=bearer(table["token"])).get_json()
    assert {line["who"] for line in evening} == {"Olga the organiser Olga the organiser Olga the organiser Olga th"}


def test_a_correction_by_the_table_within_its_grace_says_which_table(client):
    cup = entered(client, NAMES[:8])
    second = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][1]
    east, south, west, north = second["seats"]
    path = f"/api/sessions/{second['session']}"
    phone = bearer(second["token"], **{"X-Client": "Table 2 phone", **ZH_HANS})
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=phone).status_code == 201
    cup.ok(cup.post("/rounds/1/end", {"grace": 30}))
    cup.ok(cup.post(f"/tables/{second['session']}/reopen"))
    assert client.put(f"{path}/hands/1", json=discard(north, west, 3), headers=phone).status_code == 200
    line = next(line for line in cup.ok(cup.get("/audit", level="organizer")) if line["action"] == "correct")
    assert (line["who"], line["client"], line["table"], line["round"]) == ("table 2 of round 1", "Table 2 phone", 2, 1)
