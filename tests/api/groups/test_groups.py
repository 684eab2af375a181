"""Groups through the API: tokens and their levels, the roster, group evenings, payments, balances, seasons.

Amounts are worked by hand (tests/api/groups/groups.py): a 1-台 win on a discard,
the dealer not involved, is 120 from the discarder; 2 台 is 140.
"""
from tests.api.groups.groups import Club
from tests.api.sessions.tables import assert_rejected, discard


def test_a_group_answers_each_of_its_tokens_at_its_level_and_nothing_else(client):
    club = Club(client)
    assert set(club.created) == {"id", "name", "defaults", "admin_token", "member_token", "read_token"}
    assert club.created["defaults"] == {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}
    assert [club.get_ok(level=level)["access"] for level in ("admin", "member", "read")] == ["admin", "member", "read"]
    assert client.get(club.path).status_code == 401
    assert client.get(club.path, headers={"Authorization": "Bearer not-a-token"}).status_code == 401
    other = Club(client, name="Other club")
    assert client.get(club.path, headers=other.headers("admin")).status_code == 401
    assert client.get(f"/api/groups/{'0' * 40}", headers=club.headers()).status_code == 404
    assert club.post("/members", {"name": "Amy"}, level="read").status_code == 403


def test_members_join_are_renamed_and_refused_as_the_contract_says(client):
    club = Club(client)
    amy = club.add("Amy", aliases=["阿美"])
    guest = club.add("Guest")  # the member token adds a guest on the spot
    assert club.post_ok("/members", {"name": "Ben"}, level="admin")["aliases"] == []
    assert_rejected(club.post("/members", {"name": "阿美"}), "name", "already")
    assert club.client.patch(f"{club.path}/members/{amy}", json={"name": "Amelia"},
                             headers=club.headers("member")).status_code == 403
    renamed = club.client.patch(f"{club.path}/members/Amy", json={"name": "Amelia"}, headers=club.headers("admin"))
    assert renamed.get_json() == {"id": amy, "name": "Amelia", "aliases": ["Amy", "阿美"]}
    assert_rejected(club.post(f"/members/{guest}/merge", {"into": guest}, level="admin"), "into", "itself")
    assert_rejected(club.post(f"/members/{guest}/merge", {"into": "Nobody"}, level="admin"), "into", "Nobody")
    assert club.post(f"/members/{guest}/merge", {"into": amy}, level="member").status_code == 403
    assert club.get("/members/Nobody").status_code == 404
    members = club.get_ok()["members"]
    assert [member["name"] for member in members] == ["Amelia", "Guest", "Ben"]  # in the order they joined


def test_a_group_evening_takes_the_defaults_and_opens_to_the_group_tokens_at_their_level(client):
    club = Club(client)
    ids = [club.add(name) for name in ("Amy", "Ben", "Cat", "Dan")]
    evening = club.evening([ids[0], "Ben", ids[2], "Dan"])
    assert evening.created["players"] == ["Amy", "Ben", "Cat", "Dan"]
    assert evening.created["stakes"] == {"base": 100, "per_tai": 20} and evening.created["group"] == club.id
    assert evening.hand(discard("Ben", "Cat"), level="read").status_code == 403
    evening.win("Ben", "Cat")
    read = client.get(evening.path, headers=club.headers("read")).get_json()
    assert read["access"] == "read" and read["totals"] == {"Amy": 0, "Ben": 120, "Cat": -120, "Dan": 0}
    assert read["group"] == club.id
    own = {"Authorization": f"Bearer {evening.created['token']}"}
    assert client.get(evening.path, headers=own).get_json()["access"] == "write"
    assert client.post(f"{evening.path}/close", headers=club.headers("admin")).status_code == 200
    listed = club.get_ok()["evenings"]
    assert listed == [{"id": evening.id, "name": "Friday", "ruleset": "taiwan", "created_at": read["created_at"],
                       "closed": True, "hand_count": 1, "players": dict(zip(["Amy", "Ben", "Cat", "Dan"], ids)),
                       "totals": read["totals"]}]
    stranger = Club(client, name="Other")
    assert client.get(evening.path, headers=stranger.headers("admin")).status_code == 403


def test_a_group_evening_is_refused_without_a_writing_token_or_with_someone_not_a_member(client):
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    body = {"name": "Friday", "players": ["Amy", "Ben", "Cat", "Dan"], "group": club.id}
    assert client.post("/api/sessions", json=body).status_code == 401
    assert client.post("/api/sessions", json=body, headers=club.headers("read")).status_code == 403
    response = client.post("/api/sessions", json={**body, "players": ["Amy", "Ben", "Cat", "Eve"]},
                           headers=club.headers())
    assert_rejected(response, "players[3]", "Eve")
    assert_rejected(client.post("/api/sessions", json={**body, "players": ["Amy", "Ben", "Cat", "Amy"]},
                                headers=club.headers()), "players[3]", "twice")
    bare = Club(client, name="No defaults", defaults={})
    for name in ("Amy", "Ben", "Cat", "Dan"):
        bare.add(name)
    assert_rejected(client.post("/api/sessions", json={**body, "group": bare.id}, headers=bare.headers()),
                    "ruleset", "defaults")
    standalone = client.post("/api/sessions", json={"name": "x", "players": ["A", "B", "C", "D"]})
    assert standalone.status_code == 422 and "ruleset" in standalone.get_json()["message"]
    assert club.get_ok()["evenings"] == []


def test_a_substitute_in_a_group_evening_must_be_a_member(client):
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    eve = club.add("Eve")
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    seats = f"{evening.path}/seats"
    assert_rejected(client.post(seats, json={"seat": 2, "player": "Zoe"}, headers=club.headers()), "player", "Zoe")
    seated = client.post(seats, json={"seat": 2, "player": eve}, headers=club.headers())
    assert seated.status_code == 201 and seated.get_json()["player"] == "Eve"
    evening.win("Eve", "Dan")
    listed = club.get_ok()["evenings"][0]
    assert listed["players"]["Eve"] == eve and listed["totals"]["Eve"] == 120


def test_payments_move_balances_and_are_refused_as_the_contract_says(client):
    club = Club(client)
    ids = {name: club.add(name) for name in ("Amy", "Ben", "Cat", "Dan")}
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    evening.win("Ben", "Cat")  # Cat pays Ben 120; Ben deals next
    evening.win("Dan", "Cat")  # Cat pays Dan 120
    paid = club.pay("Cat", ids["Ben"], 50, note="cash", session=evening.id)
    assert paid.status_code == 201
    payment = paid.get_json()
    assert {key: payment[key] for key in ("from", "to", "from_member", "to_member", "amount", "note", "session",
                                          "void")} == {
        "from": "Cat", "to": "Ben", "from_member": ids["Cat"], "to_member": ids["Ben"], "amount": 50,
        "note": "cash", "session": evening.id, "void": False}
    balances = club.balances()
    # Cat: -240 + 50 paid = -190; Ben: 120 - 50 received = 70; Dan 120.
    assert balances["balances"] == {"Amy": 0, "Ben": 70, "Cat": -190, "Dan": 120}
    assert balances["transfers"] == [
        {"from": "Cat", "to": "Dan", "amount": 120, "from_member": ids["Cat"], "to_member": ids["Dan"]},
        {"from": "Cat", "to": "Ben", "amount": 70, "from_member": ids["Cat"], "to_member": ids["Ben"]}]
    cat = next(row for row in balances["members"] if row["name"] == "Cat")
    assert cat["because"] == [{"session": evening.id, "name": "Friday", "amount": -240},
                              {"payment": payment["id"], "amount": 50}]
    assert club.balances(round_to=100)["balances"] == {"Amy": 0, "Ben": 100, "Cat": -200, "Dan": 100}
    assert_rejected(club.pay("Cat", "Cat", 10), "to", "themselves")
    assert_rejected(club.pay("Cat", "Ben", 0), "amount", "positive")
    assert_rejected(club.pay("Cat", "Ben", -5), "amount", "positive")
    assert_rejected(club.pay("Cat", "Nobody", 5), "to", "Nobody")
    assert club.post("/payments", {"from": "Cat", "to": "Ben", "amount": 5}, level="read").status_code == 403
    voided = client.delete(f"{club.path}/payments/{payment['id']}", headers=club.headers())
    assert voided.status_code == 200 and voided.get_json()["void"] is True
    assert club.balances()["balances"] == {"Amy": 0, "Ben": 120, "Cat": -240, "Dan": 120}
    assert [row["void"] for row in club.get_ok("/payments")["payments"]] == [True]
    actions = [line["action"] for line in club.get_ok("/audit")["audit"]]
    assert actions[-2:] == ["payment", "payment_void"]


def test_mark_paid_records_every_transfer_at_once_or_none(client):
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    evening.win("Ben", "Cat")
    evening.win("Dan", "Cat")
    refused = club.post("/payments", {"session": evening.id, "payments": [
        {"from": "Cat", "to": "Ben", "amount": 120}, {"from": "Cat", "to": "Cat", "amount": 120}]})
    assert_rejected(refused, "payments[1].to", "themselves")
    assert club.get_ok("/payments")["payments"] == []
    settle = client.get(f"{evening.path}/settlement", headers=club.headers()).get_json()["transfers"]
    marked = club.post_ok("/payments", {"session": evening.id, "payments": settle})["payments"]
    assert [(row["from"], row["to"], row["amount"], row["session"]) for row in marked] == [
        ("Cat", "Ben", 120, evening.id), ("Cat", "Dan", 120, evening.id)]
    assert club.balances()["balances"] == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}
    assert club.balances()["transfers"] == []


def test_a_rename_shows_everywhere_and_a_merge_moves_evenings_payments_and_figures(client):
    club = Club(client)
    ids = {name: club.add(name) for name in ("Amy", "Ben", "Cat", "Dan", "Cathy")}
    first = club.evening(["Amy", "Ben", "Cat", "Dan"])
    first.win("Ben", "Cat")  # Cat -120
    second = club.evening(["Amy", "Ben", "Cathy", "Dan"], name="Saturday")
    second.win("Cathy", "Dan", tai=2)  # Cathy +140, Dan -140
    assert club.pay("Cathy", "Ben", 30).status_code == 201
    client.patch(f"{club.path}/members/Ben", json={"name": "Benny"}, headers=club.headers("admin"))
    assert club.balances()["balances"] == {"Amy": 0, "Benny": 90, "Cat": -120, "Cathy": 170, "Dan": -140}
    assert club.get_ok()["evenings"][1]["players"]["Ben"] == ids["Ben"]  # the evening keeps its names
    before = (club.balances(), club.standings())
    # Amy and Dan sat at one table: two people, never a duplicate of each other.
    assert_rejected(club.post("/members/Dan/merge", {"into": "Amy"}, level="admin"), "into", "same table")
    assert (club.balances(), club.standings()) == before
    merged = club.post_ok("/members/Cathy/merge", {"into": "Cat"}, level="admin", status=200)
    assert merged == {"id": ids["Cat"], "name": "Cat", "aliases": ["Cathy"]}
    # Cat: -120 + 140 + 30 paid = 50; every sum is kept.
    assert club.balances()["balances"] == {"Amy": 0, "Benny": 90, "Cat": 50, "Dan": -140}
    assert club.get_ok("/payments")["payments"][0]["from"] == "Cat"
    rows = {row["name"]: row for row in club.standings()["standings"]}
    assert (rows["Cat"]["net"], rows["Cat"]["evenings"], rows["Cat"]["wins"], rows["Cat"]["deal_ins"]) == (20, 2, 1, 1)
    assert rows["Benny"]["net"] == 120 and sum(row["net"] for row in rows.values()) == 0
    assert club.get("/members/Cathy").status_code == 404
    page = club.get_ok(f"/members/{ids['Cat']}")
    assert page["member"]["aliases"] == ["Cathy"]
    assert (page["full_hands"], page["full_wins"], page["patterns"]) == (0, 0, [])  # quick entries only
    assert [(row["session"], row["net"], row["cumulative"]) for row in page["series"]] == [
        (first.id, -120, -120), (second.id, 140, 20)]
    assert {row["name"]: row["net"] for row in page["head_to_head"]} == {"Benny": -120, "Dan": 140}
    assert club.get_ok("/audit")["audit"][-1]["action"] == "merge"


def test_standings_follow_periods_and_seasons(client):
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    evening.win("Ben", "Cat")
    day = evening.created["created_at"][:10]
    assert [row["name"] for row in club.standings()["standings"]] == ["Ben", "Amy", "Dan", "Cat"]
    ben = club.standings()["standings"][0]
    assert (ben["hands"], ben["wins"], ben["win_rate"], ben["net"]) == (1, 1, 1.0, 120)
    assert club.standings(to="2000-01-01") == {"from": None, "to": "2000-01-01", "standings": []}
    assert_rejected(club.get("/standings", query_string={"from": "2030-01-02", "to": "2030-01-01"}), "from", "after")
    season = {"name": "Winter", "from": day, "to": day}
    assert club.post("/seasons", season).status_code == 403
    assert_rejected(club.post("/seasons", {**season, "from": "2030-01-02", "to": "2030-01-01"}, level="admin"),
                    "from", "after")
    created = club.post_ok("/seasons", season, level="admin")
    assert created == {"id": created["id"], **season}
    assert club.get_ok()["seasons"] == [created]
    assert club.standings(season=created["id"])["from"] == day
    assert len(club.standings(season=created["id"], min_evenings=2)["standings"]) == 0
    assert_rejected(club.get("/standings", query_string={"season": 999999}), "season", "999999")


def test_an_evening_is_attached_by_its_write_token_and_deleted_by_the_admin(client):
    club = Club(client)
    ids = {name: club.add(name) for name in ("Amy", "Ben", "Cat", "Dan")}
    created = client.post("/api/sessions", json={"name": "Before", "ruleset": "taiwan", "players": ["A", "B", "C", "D"],
                                                 "stakes": {"base": 100, "per_tai": 20}}).get_json()
    own = {"Authorization": f"Bearer {created['token']}"}
    client.post(f"/api/sessions/{created['id']}/hands", json=discard("B", "C"), headers=own)
    mapping = {"A": "Amy", "B": "Ben", "C": "Cat", "D": ids["Dan"]}
    body = {"session": created["id"], "token": created["read_token"], "players": mapping}
    assert club.post("/sessions", body).status_code == 403
    assert_rejected(club.post("/sessions", {**body, "token": created["token"], "players": {**mapping, "D": "Zoe"}}),
                    "players.D", "Zoe")
    attached = club.post_ok("/sessions", {**body, "token": created["token"]})
    assert attached["players"] == {"A": ids["Amy"], "B": ids["Ben"], "C": ids["Cat"], "D": ids["Dan"]}
    assert club.balances()["balances"] == {"Amy": 0, "Ben": 120, "Cat": -120, "Dan": 0}
    assert_rejected(club.post("/sessions", {**body, "token": created["token"]}), "session", "already")
    assert club.pay("Cat", "Ben", 120, session=created["id"]).status_code == 201
    path = f"{club.path}/sessions/{created['id']}"
    assert client.delete(path, headers=club.headers("member")).status_code == 403
    assert client.delete(path, headers=club.headers("admin")).status_code == 204
    assert client.get(f"/api/sessions/{created['id']}", headers=own).status_code == 404
    # The payment stays (naming no evening now): Cat has paid Ben 120 that no evening owed.
    assert club.get_ok("/payments")["payments"][0]["session"] is None
    assert club.balances()["balances"] == {"Amy": 0, "Ben": -120, "Cat": 120, "Dan": 0}
    assert club.get_ok("/audit")["audit"][-1]["action"] == "delete_evening"


def test_new_tokens_retire_the_old_ones(client):
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    assert club.post("/tokens", level="member").status_code == 403
    fresh = club.post_ok("/tokens", level="admin")
    assert client.get(club.path, headers=club.headers("read")).status_code == 401
    assert client.get(evening.path, headers=club.headers("member")).status_code == 401  # "replaced" (issue 27)
    assert client.get(club.path, headers={"Authorization": f"Bearer {fresh['read_token']}"}).status_code == 200
    assert client.get(evening.path, headers={"Authorization": f"Bearer {fresh['member_token']}"}).status_code == 200


def test_a_group_token_follows_a_group_evening_live(client):
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name)
    evening = club.evening(["Amy", "Ben", "Cat", "Dan"])
    evening.win("Ben", "Cat")
    client.application.config.update(EVENTS_STREAM_S=0.3, EVENTS_HEARTBEAT_S=0.1)
    body = client.get(f"{evening.path}/events?after=1&token={club.tokens['read']}").get_data(as_text=True)
    assert body.startswith("retry: 1000\n\nid: 2\nevent: hand\n")


def test_the_openapi_document_describes_the_group_endpoints_with_their_parameters(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    standings = paths["/api/groups/{group_id}/standings"]["get"]
    assert [parameter["name"] for parameter in standings["parameters"]] == ["from", "to", "season", "min_evenings"]
    assert standings["security"] == [{"bearerAuth": []}] and {"401", "403", "404"} <= set(standings["responses"])
    def parameters(suffix):
        item = paths["/api/groups/{group_id}" + suffix]
        return [parameter["name"] for parameter in item["get"]["parameters"] + item["parameters"]]

    assert parameters("/report.pdf") == ["from", "to", "season", "lang", "token", "group_id"]
    assert parameters("/standings.png") == ["from", "to", "season", "min_evenings", "lang", "token", "group_id"]
    assert parameters("/balances.png") == ["round_to", "lang", "token", "group_id"]
    assert "image/png" in paths["/api/groups/{group_id}/balances.png"]["get"]["responses"]["200"]["content"]
    assert {"post"} <= set(paths["/api/groups/{group_id}/payments"]) and "/api/groups/import" in paths


def test_more_open_balances_than_the_exact_search_takes_are_still_cleared_and_said_not_proven_fewest(client):
    club = Club(client)
    for name in ["Host"] + [f"P{i:02}" for i in range(16)]:
        club.add(name)
    for i in range(16):  # each of 16 lends the host 10: each is owed 10 back, the host owes 160
        assert club.pay(f"P{i:02}", "Host", 10).status_code == 201
    balances = club.balances()
    assert balances["balances"] == {"Host": -160, **{f"P{i:02}": 10 for i in range(16)}}
    assert [(t["from"], t["to"], t["amount"]) for t in balances["transfers"]] == [
        ("Host", f"P{i:02}", 10) for i in range(16)]
    assert balances["fewest"] is False
    assert club.pay("P00", "P01", 10).status_code == 201  # P00 now owed 20, P01 square: 16 open balances
    assert "fewest" not in club.balances()


def test_defaults_an_evening_could_not_start_from_are_refused_when_the_group_is_made(client):
    def create(defaults):
        return client.post("/api/groups", json={"name": "Club", "defaults": defaults})
    assert_rejected(create({"house_rules": {"max_dealer_extra": 5}}), "defaults.ruleset", "rule set")
    assert_rejected(create({"ruleset": "taiwan", "house_rules": {"values": {"no_such_pattern": 3}}}),
                    "house_rules.values.no_such_pattern", "unknown pattern")
    assert create({"ruleset": "taiwan", "house_rules": {"max_dealer_extra": 5}}).status_code == 201
