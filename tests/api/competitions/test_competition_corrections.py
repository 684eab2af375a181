"""A correction at a table after its round ended: the organiser reopens it and, with its own token, corrects a
hand and closes the table again; the standings move and the organiser's audit trail says who did what, when.

Worked by hand (Taiwanese 100 底 / 20 per 台, quick entry; the dealer 東 is in neither hand, so no dealer
extra): eight entrants, two tables of round 1, table 2 playing no hand (it does not count: 0 points, 0 net).
- As first recorded, table 1's one hand: 南 wins 3 台 on 西's discard, 100 + 20 × 3 = 160. Placement points
  4/2/1/0: 南 4 (+160); 東 and 北 level at 0 share places 2-3, (2 + 1) / 2 = 3/2 each; 西 0 (-160).
- Corrected after the round ended: 北 won 2 台 on 南's discard, 100 + 20 × 2 = 140. 北 4 (+140); 東 and 西
  level at 0 share places 2-3, 3/2 each; 南 0 (-140).
Standings after the correction: 1 北 4 +140; 2 東 and 2 西 3/2 0; 4 the four of table 2, 0 0; 8 南 0 -140.
"""
from tests.api.competitions.test_competitions import NAMES, ZH_HANT, entered
from tests.api.sessions.tables import discard

ORGANISER = {"X-Client": "Olga (organiser)"}
PHONE = {"X-Client": "Table 1 phone"}


def ranked(cup) -> dict[str, tuple]:
    return {row["name"]: (row["rank"], row["points_exact"], row["net"]) for row in cup.ok(cup.get("/standings"))}


def test_a_correction_after_the_round_moves_the_standings_and_is_audited_for_the_organiser(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    table, other = drawn["tables"]
    east, south, west, north = table["seats"]
    path = f"/api/sessions/{table['session']}"
    phone = {"Authorization": f"Bearer {table['token']}", **PHONE}
    organiser = cup.headers("organizer", ORGANISER)
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=phone).status_code == 201
    cup.ok(cup.post("/rounds/1/end", {"grace": 0}, extra=ORGANISER))
    before = ranked(cup)
    assert (before[south], before[east], before[north], before[west]) == (
        (1, "4", 160), (2, "3/2", 0), (2, "3/2", 0), (8, "0", -160))

    refused = client.put(f"{path}/hands/1", json=discard(north, south, 2), headers={**phone, **ZH_HANT})
    assert refused.status_code == 409 and refused.get_json()["message"]  # closed: the table cannot correct alone
    assert ranked(cup) == before
    cup.ok(cup.post(f"/tables/{table['session']}/reopen", extra=ORGANISER))
    late = client.put(f"{path}/hands/1", json=discard(north, south, 2), headers={**phone, **ZH_HANT})
    assert late.status_code == 409  # reopened past the grace (0 minutes): the correction is the organiser's
    assert late.get_json()["message"] == "第 1 輪已經結束，寬限時間也過了：現在只有主辦人的連結能更正這桌。"
    corrected = client.put(f"{path}/hands/1", json=discard(north, south, 2), headers=organiser)
    assert corrected.status_code == 200 and corrected.get_json()["payments"][north] == 140
    assert client.post(f"{path}/close", headers=organiser).status_code == 200

    after = ranked(cup)
    assert (after[north], after[east], after[west], after[south]) == (
        (1, "4", 140), (2, "3/2", 0), (2, "3/2", 0), (8, "0", -140))
    assert all(after[name] == (4, "0", 0) for name in other["seats"])
    history = next(row for row in cup.ok(cup.get("/standings")) if row["name"] == north)["rounds"]
    assert [(line["table"], line["wind"], line["net"], line["points_exact"]) for line in history] == [
        (1, "N", 140, "4")]

    trail = cup.ok(cup.get("/audit", level="organizer"))
    shown = [(line["action"], line["who"], line["client"], line["round"], line["table"], line["number"],
              line["after_round_end"]) for line in trail]
    olga = ORGANISER["X-Client"]
    assert shown == [("create", "organizer", "unknown", None, None, None, False),
                     ("entrants", "organizer", "unknown", None, None, None, False),
                     ("draw", "organizer", "unknown", 1, None, None, False),
                     ("end", "organizer", olga, 1, None, None, False),
                     ("reopen_table", "organizer", olga, 1, 1, None, False),
                     ("reopen", "organizer", olga, 1, 1, None, True),
                     ("correct", "organizer", olga, 1, 1, 1, True),
                     ("close", "organizer", olga, 1, 1, None, True)]
    correction = trail[6]
    assert correction["session"] == table["session"]
    assert correction["before"]["winners"] == [{"player": south, "tai": 3}]
    assert correction["after"]["winners"] == [{"player": north, "tai": 2}]
    ended, correct_at = trail[3]["at"], correction["at"]
    assert ended <= trail[4]["at"] <= correct_at <= trail[7]["at"]  # ISO 8601 in UTC: in time order as text
    # The evening's own trail says the same to the table's token.
    evening = client.get(f"{path}/audit", headers=phone).get_json()
    assert [(line["action"], line["who"]) for line in evening] == [
        ("close", olga), ("reopen", olga), ("correct", olga), ("close", olga)]


def test_the_audit_trail_is_the_organisers(client):
    cup = entered(client, NAMES[:4])
    read = client.get(f"{cup.path}/audit", headers=cup.headers("read", ZH_HANT))
    assert read.status_code == 403 and read.get_json()["message"] == "這是比賽的唯讀連結：可以看，不能改。"
    assert client.get(f"{cup.path}/audit").status_code == 401


def test_a_table_whose_only_hand_is_voided_counts_nothing(client):
    """Worked by hand: table 1's one hand (南 +160 on 西's discard) voided after the round ended leaves it with no
    hand played, as table 2: no table counts, so all eight entrants share rank 1 at 0 points and 0 net, and the
    table shows 0 hands (a tie at 0 would have given each of its four (4 + 2 + 1 + 0) / 4 = 7/4 instead)."""
    cup = entered(client, NAMES[:8])
    table, _ = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"]
    east, south, west, north = table["seats"]
    path = f"/api/sessions/{table['session']}"
    phone = {"Authorization": f"Bearer {table['token']}", **PHONE}
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=phone).status_code == 201
    cup.ok(cup.post("/rounds/1/end", {"grace": 0}, extra=ORGANISER))
    cup.ok(cup.post(f"/tables/{table['session']}/reopen", extra=ORGANISER))
    assert client.delete(f"{path}/hands/1", headers=cup.headers("organizer", ORGANISER)).status_code == 200
    assert set(ranked(cup).values()) == {(1, "0", 0)}
    shown = cup.ok(cup.get(""))["drawn"][0]["tables"][0]
    assert (shown["session"], shown["hands"]) == (table["session"], 0)


def test_a_tables_evening_with_a_hand_recorded_after_its_round_exports_and_imports_whole(client):
    """The hand the organiser records at a reopened table is audited with no body before it (it is new): its
    export imports, with the same totals and that audit line. (Import refused it: a hand's line needed a before.)"""
    cup = entered(client, NAMES[:8])
    table = cup.ok(cup.post("/rounds", {"seed": 3}), 201)["tables"][0]
    east, south, west, north = table["seats"]
    path = f"/api/sessions/{table['session']}"
    organiser = cup.headers("organizer", ORGANISER)
    cup.ok(cup.post("/rounds/1/end", {"grace": 0}, extra=ORGANISER))
    cup.ok(cup.post(f"/tables/{table['session']}/reopen", extra=ORGANISER))
    assert client.post(f"{path}/hands", json=discard(south, west, 3), headers=organiser).status_code == 201
    assert client.post(f"{path}/close", headers=organiser).status_code == 200
    trail = client.get(f"{path}/audit", headers=organiser).get_json()
    assert [(line["action"], line["before"]) for line in trail][-2] == ("hand", None)

    document = client.get(f"{path}/export", headers=organiser).get_json()
    imported = client.post("/api/sessions/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    headers = {"Authorization": f"Bearer {copy['token']}"}
    assert client.get(f"/api/sessions/{copy['id']}", headers=headers).get_json()["totals"] == {
        east: 0, south: 160, west: -160, north: 0}  # 100 + 3 × 20 on 西's discard, 東 dealing in neither
    kept = client.get(f"/api/sessions/{copy['id']}/audit", headers=headers).get_json()
    assert [(line["action"], line["number"], line["before"], line["after"]) for line in kept] == [
        ("hand", 1, None, trail[-2]["after"])]  # the hand's line; closing and reopening are the table's, not kept
