"""POST /api/score and GET /api/rulesets for ``shanghai`` (RULES.md §7, API.md: Score).

Every expected value is worked by hand from RULES.md §7:
花 hand: points = min((花 + 2) × 2^番, 10); 勒 hand: points = 10 × Σ勒.
"""
from tests.databases import SQLITE_ONLY

pytestmark = SQLITE_ONLY  # these requests read no database (tests/databases.py)


def score(client, hand, win=None, **context):
    return client.post("/api/score", json={"ruleset": "shanghai", "hand": hand, "win": win or {}, **context})


def test_a_flower_hand_reports_flowers_fan_lei_and_points(client):
    # 456m 789m 東東東 + chow 234m, pair 南南 (won on 南): 混一色 (qualifies, 0 番),
    # 東 pung 1 花; not 門清 (a chow meld). points = (1 + 2) × 2^0 = 3.
    response = score(client, {"concealed": "456m789m1112z", "winning_tile": "2z",
                              "melds": [{"kind": "chow", "tiles": "234m"}]}, {"by": "discard"})
    assert response.status_code == 200
    body = response.json
    assert body["unit"] == "flower"
    assert (body["flowers"], body["lei"], body["fan"], body["points"]) == (1, 0, 0, 3)
    assert {p["id"]: (p["value"], p["unit"]) for p in body["patterns"]} == {
        "half_flush": (0, "fan"), "wind_pung": (1, "flower")}
    assert body["total"] == sum(p["value"] for p in body["patterns"]) == 1
    assert body["pair"] == ["2z", "2z"]


def test_concealed_doubles_a_flower_hand(client):
    # 111m 234m 567m 白白白, pair 北北, all concealed, won on 北 by discard:
    # 混一色 0 番, 白 pung 2 花, 北 is the pair (no 花); 門清 1 番.
    # points = (2 + 2) × 2^1 = 8.
    response = score(client, {"concealed": "111234567m5554z", "winning_tile": "4z"}, {"by": "discard"})
    body = response.json
    assert (body["flowers"], body["fan"], body["lei"], body["points"]) == (2, 1, 0, 8)
    assert {p["id"] for p in body["patterns"]} == {"half_flush", "dragon_pung", "concealed"}


def test_a_lei_hand_is_ten_base_points_a_lei_and_concealed_does_not_double_it(client):
    # 111m 123m 456m 789m + 99m pair, all 萬, concealed, won on 1m: 清一色 1 勒 (chows, so not 清碰).
    # points = 10 × 1 = 10; 門清 does not double a 勒 hand and is not listed.
    response = score(client, {"concealed": "123456789m1199m", "winning_tile": "1m"}, {"by": "discard"})
    body = response.json
    assert response.status_code == 200
    assert [(p["id"], p["value"], p["unit"]) for p in body["patterns"]] == [("full_flush", 1, "lei")]
    assert (body["lei"], body["points"], body["total"]) == (1, 10, 1)


def test_a_plain_hand_is_refused_as_garbage(client):
    # 123m 456p 789s 234s + 東東: no qualifying pattern, a 垃圾胡 cannot win under 清混碰.
    response = score(client, {"concealed": "123m456p789s234s1z", "winning_tile": "1z"}, {"by": "discard"})
    assert response.status_code == 422
    assert "垃圾胡" in response.json["message"]
    assert score(client, {"concealed": "456m789m1112z", "winning_tile": "2z",
                          "melds": [{"kind": "chow", "tiles": "234m"}]}).status_code == 200


def test_eight_flowers_needs_only_the_flowers(client):
    # 八花 4 勒 alone: points = 10 × 4 = 40.
    response = score(client, {"flowers": "12345678f"}, {"by": "self_draw", "event": "eight_flowers"})
    body = response.json
    assert [(p["id"], p["value"]) for p in body["patterns"]] == [("eight_flowers", 4)]
    assert body["points"] == 40


# RULES.md §7, the 勒 table, copied by hand: id -> 勒.
LEI = {"heavenly_win": 10, "earthly_win": 8, "eight_flowers": 4, "all_honors": 4, "all_honors_any": 2,
       "full_flush_pungs": 2, "full_flush": 1, "half_flush_pungs": 1, "big_hanging": 1, "after_kong": 1}


def test_rulesets_lists_shanghai_with_its_lei_patterns(client):
    listed = {r["id"]: r for r in client.get("/api/rulesets").json}
    shanghai = listed["shanghai"]
    assert shanghai["unit"] == "flower" and shanghai["hand_size"] == 14
    lei = {p["id"]: p["value"] for p in shanghai["patterns"] if p["unit"] == "lei"}
    assert lei == LEI
    assert {"half_flush", "all_pungs"} <= {p["id"] for p in shanghai["patterns"] if p["unit"] == "fan"}
