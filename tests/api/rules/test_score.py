"""POST /api/score: the API.md request shape, the response fields, and every kind of bad input.

Expected breakdowns are worked by hand from RULES.md §4/§5. Every rejected
request is followed by a valid one, to show the rejection left the service
working.
"""
import copy

import pytest

from tests.databases import SQLITE_ONLY

pytestmark = SQLITE_ONLY  # these requests read no database (tests/databases.py)

# The API.md example, verbatim. Its tiles do not add up: 16 concealed + 3 melds × 3 + 1 = 26, not 17.
API_MD_EXAMPLE = {
    "ruleset": "taiwan",
    "hand": {
        "concealed": "123m456m789p234s56s55p",
        "melds": [{"kind": "chow", "tiles": "345s"},
                  {"kind": "pung", "tiles": "777p"},
                  {"kind": "kong", "tiles": "1111z", "concealed": True}],
        "winning_tile": "7s",
        "flowers": "2f5f",
    },
    "win": {"by": "discard", "after_kong": False, "last_tile": False,
            "declared_ready": False, "event": None},
    "seat_wind": "S", "round_wind": "E", "hand_wind": "E",
    "dealer": False,
    "options": {},
}

# The same shape with a legal count: 7 concealed + 3 × 3 + 1 = 17.
# Concealed 23456s + 7s = 234s 567s, pair 55p; melds 345s, 777p, concealed kong of 東.
# Seat 南, round 東, 局 東, on a discard, flowers 夏 (南's) and 梅 (東's):
#   風圈 1 and 風牌 1 (the 東 kong), 花牌 1 (夏 only); not 門清 (chow and pung melded),
#   no 平胡 (pung, honours, flowers). Total 3.
# Waits of 23456s + 55p (R4): 1s (123 456), 4s (234 456) and 7s (234 567).
API_MD_SHAPE = copy.deepcopy(API_MD_EXAMPLE)
API_MD_SHAPE["hand"]["concealed"] = "234s56s55p"
API_MD_SHAPE_PATTERNS = {"seat_flower": ("花牌", 1), "round_wind": ("風圈", 1), "hand_wind": ("風牌", 1)}
API_MD_SHAPE_SETS = [["2s", "3s", "4s"], ["5s", "6s", "7s"], ["3s", "4s", "5s"],
                     ["7p", "7p", "7p"], ["1z", "1z", "1z", "1z"]]

# The concealed hand of the API.md example without melds and flowers: five chows + 55p,
# won on 7s (two-sided 56s) from a discard, seat 南: 門清 1 + 平胡 2 = 3 (the response of API.md).
CONCEALED = {"ruleset": "taiwan", "seat_wind": "S",
             "hand": {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}}
CONCEALED_PATTERNS = {"concealed": ("門清", 1), "all_chows": ("平胡", 2)}


def post(client, body):
    return client.post("/api/score", json=body)


def breakdown(result: dict) -> dict:
    return {p["id"]: (p["name"], p["value"]) for p in result["patterns"]}


def assert_still_scores(client):
    """A valid request after a rejected one gets its usual answer."""
    response = post(client, CONCEALED)
    assert response.status_code == 200
    assert breakdown(response.get_json()) == CONCEALED_PATTERNS


def assert_rejected(client, body, *named, status=422, field=None):
    """``body`` is refused with ``status``; the message names every string of ``named``."""
    response = post(client, body)
    assert response.status_code == status, response.get_json()
    error = response.get_json()
    for text in named:
        assert text in error["message"], (text, error["message"])
    if field is not None:
        assert error["field"] == field
    assert_still_scores(client)
    return error


def with_hand(**hand) -> dict:
    """CONCEALED with some hand fields replaced."""
    body = copy.deepcopy(CONCEALED)
    body["hand"].update(hand)
    return body


def with_fields(base=None, **fields) -> dict:
    body = copy.deepcopy(base or CONCEALED)
    body.update(fields)
    return body


# ---- valid requests -------------------------------------------------------------
def test_api_md_example_has_a_wrong_tile_count(client):
    assert_rejected(client, API_MD_EXAMPLE, "wrong tile count", "= 26, expected 17", field="hand")


def test_api_md_shape_with_seventeen_tiles_scores(client):
    response = post(client, API_MD_SHAPE)
    assert response.status_code == 200
    result = response.get_json()
    assert result["ruleset"] == "taiwan"
    assert result["unit"] == "tai"
    assert breakdown(result) == API_MD_SHAPE_PATTERNS
    assert result["total"] == 3
    assert sorted(result["sets"]) == sorted(API_MD_SHAPE_SETS)
    assert result["pair"] == ["5p", "5p"]
    assert sorted(result["waits"]) == ["1s", "4s", "7s"]


def test_response_fields(client):
    result = post(client, CONCEALED).get_json()
    assert set(result) >= {"ruleset", "unit", "total", "patterns", "sets", "pair", "waits"}
    assert (result["ruleset"], result["unit"], result["total"]) == ("taiwan", "tai", 3)
    assert all(set(p) == {"id", "name", "value"} for p in result["patterns"])
    assert result["total"] == sum(p["value"] for p in result["patterns"])
    assert breakdown(result) == CONCEALED_PATTERNS
    assert sorted(result["sets"]) == [["1m", "2m", "3m"], ["2s", "3s", "4s"], ["4m", "5m", "6m"],
                                      ["5s", "6s", "7s"], ["7p", "8p", "9p"]]
    assert result["pair"] == ["5p", "5p"]
    assert sorted(result["waits"]) == ["1s", "4s", "7s"]


def test_chinese_names_score_like_compact_notation(client):
    body = copy.deepcopy(API_MD_SHAPE)
    body["hand"] = {"concealed": "2條 3條 四條 5條 六條 五筒 5筒",
                    "melds": [{"kind": "chow", "tiles": "三條四條五條"},
                              {"kind": "pung", "tiles": "7筒7筒七筒"},
                              {"kind": "kong", "tiles": "東東東風東", "concealed": True}],
                    "winning_tile": "七條", "flowers": "夏梅"}
    compact = post(client, API_MD_SHAPE).get_json()
    chinese = post(client, body)
    assert chinese.status_code == 200
    assert chinese.get_json() == compact


def test_lists_of_tile_strings_score_like_compact_notation(client):
    body = copy.deepcopy(API_MD_SHAPE)
    body["hand"] = {"concealed": ["2s", "3s", "4s", "5s", "6s", "5p", "5p"],
                    "melds": [{"kind": "chow", "tiles": ["3s", "4s", "5s"]},
                              {"kind": "pung", "tiles": ["7p", "7p", "7p"]},
                              {"kind": "kong", "tiles": ["1z", "1z", "1z", "1z"], "concealed": True}],
                    "winning_tile": ["7s"], "flowers": ["2f", "5f"]}
    response = post(client, body)
    assert response.status_code == 200
    assert response.get_json() == post(client, API_MD_SHAPE).get_json()


def test_dealer_defaults_to_the_east_seat(client):
    # Seat 東 without "dealer": the dealer, so 天胡 is allowed. Self-drawn 平胡 hand:
    # 平胡 2 (taiwan allows it self-drawn) + 天胡 8, which replaces 門清一摸三 (R8). Total 10.
    body = with_fields(seat_wind="E", win={"by": "self_draw", "event": "heavenly_win"})
    response = post(client, body)
    assert response.status_code == 200
    assert breakdown(response.get_json()) == {"all_chows": ("平胡", 2), "heavenly_win": ("天胡", 8)}
    assert response.get_json()["total"] == 10


@pytest.mark.parametrize("event, flowers, name", [
    ("eight_flowers", "12345678f", "八仙過海"),
    ("seven_flowers_rob", "春夏秋冬梅蘭菊", "七搶一"),
])
def test_flower_events_need_only_the_flowers(client, event, flowers, name):
    # taiwan_zz: 八仙過海 / 七搶一 are 8 台 alone, no 花牌, 花槓 or 自摸 on top (R10).
    body = {"ruleset": "taiwan_zz", "hand": {"flowers": flowers},
            "win": {"by": "self_draw", "event": event}}
    response = post(client, body)
    assert response.status_code == 200
    result = response.get_json()
    assert result["patterns"] == [{"id": event, "name": name, "value": 8}]
    assert result["total"] == 8
    assert (result["sets"], result["pair"], result["waits"]) == ([], [], [])


@pytest.mark.parametrize("event, flowers, message", [
    ("eight_flowers", "1234567f", "eight_flowers needs 8 flowers, got 7"),
    ("seven_flowers_rob", "12345678f", "seven_flowers_rob needs 7 flowers, got 8"),
    ("eight_flowers", "", "eight_flowers needs 8 flowers, got 0"),
])
def test_flower_events_with_the_wrong_number_of_flowers(client, event, flowers, message):
    body = {"ruleset": "taiwan_zz", "hand": {"flowers": flowers},
            "win": {"by": "self_draw", "event": event}}
    assert_rejected(client, body, message, field="hand.flowers")


# ---- bad tiles and hands ----------------------------------------------------------
def test_unknown_tile(client):
    assert_rejected(client, with_hand(concealed="123m456m789p234s56s50p"),
                    "unknown tile '0p'", field="hand.concealed")


def test_unknown_chinese_tile(client):
    assert_rejected(client, with_hand(winning_tile="龍"), "unknown tile '龍'", field="hand.winning_tile")


def test_fifth_copy(client):
    # Four 1m in hand plus a 1m as the winning tile; the count itself (16 + 1) is right.
    assert_rejected(client, with_hand(concealed="1111m23m456m789p23s55p", winning_tile="1m"),
                    "5 copies of 1m", "only four")


def test_fifth_copy_across_a_meld(client):
    # 777p pung melded, one more 7p concealed, 7p won: five (13 + 3 + 1 = 17 tiles).
    body = with_hand(concealed="123m456m7p234s567s", winning_tile="7p",
                     melds=[{"kind": "pung", "tiles": "777p"}])
    assert_rejected(client, body, "5 copies of 7p")


def test_second_copy_of_a_flower(client):
    assert_rejected(client, with_hand(flowers="1f春"), "flower 春 appears 2 times", field="hand.flowers")


def test_wrong_count(client):
    assert_rejected(client, with_hand(concealed="123m456m789p234s56s5p"),
                    "wrong tile count", "= 16, expected 17", field="hand")


def test_more_than_one_winning_tile(client):
    assert_rejected(client, with_hand(winning_tile="7s8s"), "exactly one tile", field="hand.winning_tile")


@pytest.mark.parametrize("kind, meld, problem", [
    ("chow", "135s", "135s is not a chow"),
    ("chow", "123z", "123z is not a chow"),
    ("pung", "556p", "556p is not a pung"),
    ("kong", "1112z", "1112z is not a kong"),
    ("pung", "55p", "a pung has 3 tiles, got 55p"),
])
def test_meld_that_is_not_a_set(client, kind, meld, problem):
    body = with_hand(concealed="123m456m789p55p", winning_tile="5p",
                     melds=[{"kind": kind, "tiles": meld}])
    assert_rejected(client, body, problem, field="hand.melds[0]")


def test_concealed_flag_on_a_pung(client):
    body = with_hand(concealed="123m456m789p55p", winning_tile="5p",
                     melds=[{"kind": "pung", "tiles": "777s", "concealed": True}])
    assert_rejected(client, body, "only a kong can be concealed", field="hand.melds[0]")


def test_unknown_meld_kind(client):
    body = with_hand(concealed="123m456m789p55p", winning_tile="5p",
                     melds=[{"kind": "eye", "tiles": "777s"}])
    assert_rejected(client, body, "hand.melds.0.kind", "Must be one of: chow, pung, kong")


def test_flowers_in_the_hand(client):
    assert_rejected(client, with_hand(concealed="123m456m789p234s56s5p1f"),
                    "flower 春 belongs in hand.flowers", field="hand.concealed")


def test_flower_as_the_winning_tile(client):
    assert_rejected(client, with_hand(winning_tile="梅"), "flower 梅 belongs in hand.flowers",
                    field="hand.winning_tile")


def test_non_flower_in_flowers(client):
    assert_rejected(client, with_hand(flowers="1f1z"), "1z (東) is not a flower", field="hand.flowers")


def test_no_legal_shape(client):
    assert_rejected(client, with_hand(concealed="13579m2468p13579s12z", winning_tile="3z"),
                    "no legal shape", field="hand")


def test_missing_winning_tile(client):
    body = copy.deepcopy(CONCEALED)
    del body["hand"]["winning_tile"]
    assert_rejected(client, body, "hand.winning_tile: required", field="hand.winning_tile")


def test_missing_hand(client):
    assert_rejected(client, {"ruleset": "taiwan"}, "hand.winning_tile: required")


def test_too_long_tile_text(client):
    assert_rejected(client, with_hand(concealed="1" * 300 + "m"), "hand.concealed", "At most 200 characters")


def test_too_long_tile_list(client):
    assert_rejected(client, with_hand(flowers=["1f"] * 150), "hand.flowers", "At most 200 characters")


# ---- bad request shape ----------------------------------------------------------
def test_malformed_json_is_400(client):
    response = client.post("/api/score", data='{"ruleset": "taiwan", ', content_type="application/json")
    assert response.status_code == 400
    assert "Invalid JSON body" in response.get_json()["message"]
    assert_still_scores(client)


def test_unknown_ruleset(client):
    assert_rejected(client, with_fields(ruleset="riichi"), "unknown rule set 'riichi'", "taiwan",
                    field="ruleset")


def test_missing_ruleset(client):
    body = copy.deepcopy(CONCEALED)
    del body["ruleset"]
    assert_rejected(client, body, "ruleset: Missing data for required field")


@pytest.mark.parametrize("body, name", [
    (with_fields(colour="red"), "colour: Unknown field"),
    (with_hand(bogus=1), "hand.bogus: Unknown field"),
    (with_fields(win={"by": "discard", "robbed": True}), "win.robbed: Unknown field"),
])
def test_unknown_field(client, body, name):
    assert_rejected(client, body, name)


def test_wrong_types(client):
    assert_rejected(client, with_hand(concealed=5, melds="x"),
                    "hand.concealed: Must be a string of tiles", "hand.melds: Not a valid list")


@pytest.mark.parametrize("body, name", [
    (with_hand(winning_tile=7), "hand.winning_tile: Must be a string of tiles"),
    (with_hand(concealed=["1m", 2]), "hand.concealed: Must be a string of tiles"),
    (with_fields(dealer="maybe"), "dealer: Not a valid boolean"),
    (with_fields(win={"declared_ready": "maybe"}), "win.declared_ready: Not a valid boolean"),
    (with_fields(options=[1]), "options: Not a valid mapping type"),
    (with_fields(hand="123m"), "hand: Invalid input type"),
])
def test_more_wrong_types(client, body, name):
    assert_rejected(client, body, name)


@pytest.mark.parametrize("field, value", [
    ("seat_wind", "X"), ("round_wind", "east"), ("hand_wind", "東"), ("seat_wind", None),
])
def test_bad_wind(client, field, value):
    assert_rejected(client, with_fields(**{field: value}), field)


def test_bad_by(client):
    assert_rejected(client, with_fields(win={"by": "mail"}), "win.by",
                    "discard, self_draw, robbing_kong")


@pytest.mark.parametrize("ruleset, event", [
    ("taiwan", "eight_flowers"), ("taiwan", "heavenly_ready"), ("taiwan_zz", "nine_gates"),
])
def test_unknown_event_for_the_ruleset(client, ruleset, event):
    body = with_fields(ruleset=ruleset, win={"by": "self_draw", "event": event})
    assert_rejected(client, body, f"'{event}' is not an event of {ruleset}", field="win.event")


# ---- impossible flag combinations (R9) ------------------------------------------
@pytest.mark.parametrize("ruleset, context, win, named", [
    ("taiwan", {"seat_wind": "S"}, {"by": "self_draw", "event": "heavenly_win"},
     ("heavenly_win", "dealer only")),
    ("taiwan", {"seat_wind": "E", "dealer": False}, {"by": "self_draw", "event": "heavenly_win"},
     ("heavenly_win", "dealer only")),
    ("taiwan_zz", {"seat_wind": "W"}, {"by": "discard", "event": "heavenly_ready"},
     ("heavenly_ready", "dealer only")),
    ("taiwan", {"seat_wind": "E"}, {"by": "discard", "event": "earthly_win"},
     ("earthly_win", "non-dealer only")),
    ("taiwan_zz", {"seat_wind": "N", "dealer": True}, {"by": "self_draw", "event": "earthly_win"},
     ("earthly_win", "non-dealer only")),
    ("taiwan", {"seat_wind": "E"}, {"by": "discard", "event": "heavenly_win"},
     ("heavenly_win", "not by discard")),
    ("taiwan_zz", {"seat_wind": "E"}, {"by": "robbing_kong", "event": "heavenly_win"},
     ("heavenly_win", "not by robbing_kong")),
])
def test_impossible_event(client, ruleset, context, win, named):
    body = with_fields(ruleset=ruleset, win=win, **context)
    assert_rejected(client, body, *named, field="win.event")


@pytest.mark.parametrize("by", ["discard", "robbing_kong"])
def test_after_kong_on_a_discard(client, by):
    body = with_fields(win={"by": by, "after_kong": True})
    assert_rejected(client, body, "win.after_kong", "self-draw", f"not {by}", field="win.after_kong")


# ---- options ----------------------------------------------------------------------
def test_unknown_option(client):
    assert_rejected(client, with_fields(options={"nope": True}), "options.nope: unknown option for taiwan",
                    field="options.nope")


def test_option_of_another_ruleset(client):
    # 見花見字 exists in taiwan_zz only.
    assert_rejected(client, with_fields(options={"see_flower_see_word": True}),
                    "options.see_flower_see_word: unknown option for taiwan")


@pytest.mark.parametrize("ruleset, options, named", [
    ("taiwan", {"dealer_bonus": 1}, "options.dealer_bonus: must be true or false"),
    ("taiwan_zz", {"see_flower_see_word": "on"}, "options.see_flower_see_word: must be true or false"),
    ("taiwan", {"max_tai": True}, "options.max_tai: must be a positive integer or null"),
    ("taiwan", {"max_tai": -1}, "options.max_tai: must be a positive integer or null"),
    ("taiwan", {"max_tai": 2.5}, "options.max_tai: must be a positive integer or null"),
])
def test_wrong_option_type(client, ruleset, options, named):
    assert_rejected(client, with_fields(ruleset=ruleset, options=options), named)
