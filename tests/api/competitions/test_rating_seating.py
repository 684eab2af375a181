"""A group's competition seated by rating in round 1 (API.md: Ratings, ``"seating": "rating"``).

Eight members, entered as 1 Amy, 2 Ben, 3 Cat, 4 Dan, 5 Eve, 6 Fay, 7 Gus, 8 Hal. Two closed evenings
first (Taiwanese 100 / 20, quick entries): Amy self-draws 1 台 (Amy +360, Ben, Cat, Dan −120 each, tied);
Eve wins 1 台 on Fay's discard (Eve +120, Fay −120, Gus and Hal 0, tied). By Algorithm 4 from fresh
ratings (σ²/c = 3.7270, fixtures/group_ratings.json works the first game): a lone winner over three gets
Ω = 3.7270 × 3/4, rating 3.00 (Amy, Eve); two tied second behind one winner Ω = 3.7270 × (−1/4 + 1/3 − 1/6),
μ 24.6894, σ 8.1796, rating 0.15 (Gus, Hal); three tied behind a winner −0.47 (Ben, Cat, Dan); last behind
one winner and two tied Ω = 3.7270 × (−1/4 − 1/3), μ 22.8259, rating −1.71 (Fay). Best first, equals by
entrant number: Amy, Eve, Gus, Hal, Ben, Cat, Dan, Fay. Snake over two tables: table 1 takes places 1, 4,
5, 8 (Amy, Hal, Ben, Fay), table 2 places 2, 3, 6, 7 (Eve, Gus, Cat, Dan); with no history each table is
seated 東 南 西 北 in that order. Round 2 is Swiss as usual.
"""
from tests.api.competitions.test_competitions import BODY, ZH_HANS, ZH_HANT
from tests.api.groups.groups import Club
from tests.api.sessions.tables import discard, self_draw

NAMES = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_round_one_of_a_groups_competition_is_seated_by_rating_in_snake_order(client):
    club = Club.with_members(client, NAMES)
    for players, hand in ((NAMES[:4], self_draw("Amy")), (NAMES[4:], discard("Eve", "Fay"))):
        evening = club.evening(players)
        assert evening.hand(hand).status_code == 201
        assert client.post(f"{evening.path}/close", headers=club.headers("admin")).status_code == 200
    assert [(row["name"], row["rating"]) for row in club.get_ok("/ratings")["ratings"]] == [
        ("Amy", 3.0), ("Eve", 3.0), ("Gus", 0.15), ("Hal", 0.15), ("Ben", -0.47), ("Cat", -0.47), ("Dan", -0.47),
        ("Fay", -1.71)]
    created = client.post("/api/competitions", json={**BODY, "group": club.id, "seating": "rating"},
                          headers=club.headers())
    assert created.status_code == 201, created.get_json()
    cup = f"/api/competitions/{created.get_json()['id']}"
    organizer = {"Authorization": f"Bearer {created.get_json()['organizer_token']}"}
    assert client.get(cup, headers=organizer).get_json()["seating"] == "rating"
    assert client.post(f"{cup}/entrants", json={"names": NAMES}, headers=organizer).status_code == 201
    drawn = client.post(f"{cup}/rounds", json={"seed": "1"}, headers=organizer).get_json()
    assert [table["seats"] for table in drawn["tables"]] == [["Amy", "Hal", "Ben", "Fay"], ["Eve", "Gus", "Cat", "Dan"]]


def test_seating_by_rating_needs_a_group_in_the_readers_language(client):
    for headers, words in (({}, "needs a competition of a group"), (ZH_HANT, "牌友會"), (ZH_HANS, "牌友会")):
        refused = client.post("/api/competitions", json={**BODY, "seating": "rating"}, headers=headers)
        assert refused.status_code == 422 and words in refused.get_json()["message"], refused.get_json()
        assert refused.get_json()["field"] == "seating"
