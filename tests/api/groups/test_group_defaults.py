"""``PATCH /api/groups/<id>`` (issue 29 item 1): a group started without defaults gets them later from its admin.

Worked amounts (quick entry, the dealer not involved): a 1-台 win on a discard at 底 100 / 台 20 is
100 + 20 × 1 = 120 from the discarder; at 底 200 / 台 20 it is 200 + 20 = 220. A dealer's win adds
1 + 2n 台 (dealer extra, streak n).
"""
from tests.api.groups.groups import Club
from tests.api.sessions.tables import assert_rejected

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]


def patch(club, body, level="admin"):
    return club.client.patch(club.path, json=body, headers=club.headers(level))


def totals_after_win(evening, winner, discarder):
    evening.win(winner, discarder)
    response = evening.club.client.get(evening.path, headers=evening.club.headers())
    assert response.status_code == 200, response.get_json()
    return response.get_json()["totals"]


def test_the_admin_sets_the_defaults_of_a_group_started_without_them(client):
    club = Club(client, name="No defaults yet", defaults={})
    for name in PLAYERS:
        club.add(name)
    start = {"name": "Friday", "players": PLAYERS, "group": club.id}
    assert_rejected(client.post("/api/sessions", json=start, headers=club.headers()), "ruleset", "defaults")

    # Only the admin changes them; a member's token is refused and changes nothing.
    taiwan = {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "options": {"dealer_bonus": True}}
    refused = patch(club, {"defaults": taiwan}, level="member")
    assert refused.status_code == 403, refused.get_json()
    assert club.get_ok()["defaults"] == {}

    answer = patch(club, {"defaults": taiwan})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["defaults"] == taiwan and answer.get_json()["name"] == "No defaults yet"
    first = club.evening(PLAYERS)
    assert first.created["stakes"] == {"base": 100, "per_tai": 20}
    # Ben (not the dealer) wins 1 台 on Cat's discard: Cat pays 120.
    assert totals_after_win(first, "Ben", "Cat") == {"Amy": 0, "Ben": 120, "Cat": -120, "Dan": 0}

    # New defaults: the next evening starts from them; the one already started keeps its own.
    richer = {**taiwan, "stakes": {"base": 200, "per_tai": 20}}
    assert patch(club, {"name": "Friday club", "defaults": richer}).status_code == 200
    assert club.get_ok()["name"] == "Friday club"
    # Ben deals now (streak 0, dealer extra 1 + 2 × 0 = 1 台) and wins 1 台 on Cat's discard again, at the
    # evening's own 底 100: 100 + 20 × (1 + 1) = 140, so Ben 120 + 140 = 260.
    assert totals_after_win(first, "Ben", "Cat") == {"Amy": 0, "Ben": 260, "Cat": -260, "Dan": 0}
    second = club.evening(PLAYERS, name="Tuesday")
    assert totals_after_win(second, "Ben", "Cat") == {"Amy": 0, "Ben": 220, "Cat": -220, "Dan": 0}
    audit = [line["action"] for line in club.get_ok("/audit", level="admin")["audit"]]
    assert audit.count("edit") == 2


def test_defaults_an_evening_could_not_start_from_are_refused_and_change_nothing(client):
    club = Club(client)
    before = club.get_ok()["defaults"]
    assert_rejected(patch(club, {"defaults": {"house_rules": {"max_dealer_extra": 5}}}), "defaults.ruleset", "rule set")
    assert_rejected(patch(club, {"defaults": {"ruleset": "mahjong"}}), "defaults.ruleset")
    assert_rejected(patch(club, {"name": ""}), "name")
    assert club.get_ok()["defaults"] == before and club.get_ok()["name"] == "Friday club"


def test_the_openapi_document_describes_the_change_of_a_groups_defaults(client):
    patch_doc = client.get("/api/openapi.json").get_json()["paths"]["/api/groups/{group_id}"]["patch"]
    assert {"200", "401", "403", "404", "422"} <= set(patch_doc["responses"])
    schema = patch_doc["requestBody"]["content"]["application/json"]["schema"]
    components = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    properties = components[schema["$ref"].rsplit("/", 1)[1]]["properties"]
    assert set(properties) == {"name", "defaults"}


def test_a_patch_without_a_name_or_defaults_is_422_and_changes_nothing(client):
    club = Club(client)
    before = client.get(f"/api/groups/{club.id}", headers=club.headers("admin")).get_json()
    for body in ({}, None):
        response = client.patch(f"/api/groups/{club.id}", json=body, headers=club.headers("admin"))
        assert response.status_code == 422, body
    assert client.get(f"/api/groups/{club.id}", headers=club.headers("admin")).get_json() == before
