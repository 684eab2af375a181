"""GET /api/rulesets: every rule set, with the patterns and options of RULES.md.

The tables below are copied by hand from RULES.md §4 (taiwan) and §5
(taiwan_zz, including the 見花見字 patterns of its option paragraph).
"""
import pytest

from ledger.rules import RULESETS
from tests.databases import SQLITE_ONLY

pytestmark = SQLITE_ONLY  # these requests read no database (tests/databases.py)

# RULES.md §4: id -> (name, 台). "1 each" rows are listed with their value per item.
TAIWAN = {
    "concealed": ("門清", 1),
    "self_draw": ("自摸", 1),
    "concealed_self_draw": ("門清一摸三", 3),
    "seat_flower": ("花牌", 1),
    "flower_set": ("花槓", 1),
    "seat_wind": ("門風", 1),
    "round_wind": ("風圈", 1),
    "hand_wind": ("風牌", 1),
    "declared_ready": ("立直", 1),
    "all_simples": ("斷么九", 1),
    "dragon_pung": ("三元台", 1),
    "after_kong": ("槓上開花", 1),
    "last_tile_discard": ("海底撈魚", 1),
    "last_tile_draw": ("海底撈月", 1),
    "mixed_triple_chow": ("三色同順", 1),
    "pure_double_chow": ("一盃口", 1),
    "pure_straight": ("一條龍", 1),
    "outside_hand": ("混全帶么", 1),
    "three_kongs": ("三槓子", 2),
    "three_concealed_pungs": ("三暗刻", 2),
    "triple_pung": ("三色同刻", 2),
    "twice_pure_double_chow": ("二盃口", 2),
    "all_chows": ("平胡", 2),
    "all_melded": ("全求", 2),
    "all_pungs": ("碰碰胡", 4),
    "small_three_dragons": ("小三元", 4),
    "all_terminals_and_honors": ("混老頭", 4),
    "pure_outside_hand": ("純全帶么", 4),
    "half_flush": ("混一色", 4),
    "four_concealed_pungs": ("四暗刻", 6),
    "four_kongs": ("四槓子", 6),
    "small_four_winds": ("小四喜", 6),
    "big_three_dragons": ("大三元", 6),
    "full_flush": ("清一色", 6),
    "five_concealed_pungs": ("五暗刻", 8),
    "all_terminals": ("清老頭", 8),
    "big_four_winds": ("大四喜", 8),
    "all_honors": ("字一色", 8),
    "heavenly_win": ("天胡", 8),
    "earthly_win": ("地胡", 8),
}

# RULES.md §5, then the patterns option see_flower_see_word adds
# (RULES.md names exposed_kong "明槓/加槓"; the service shows 明槓).
TAIWAN_ZZ = {
    "no_points": ("屁胡", 0),
    "declared_ready": ("聽牌", 1),
    "single_wait": ("獨聽", 1),
    "self_draw": ("自摸", 1),
    "concealed": ("門清", 1),
    "concealed_self_draw": ("門清自摸", 3),
    "seat_wind": ("門風", 1),
    "round_wind": ("圈風", 1),
    "seat_flower": ("花牌", 1),
    "flower_set": ("花槓", 2),
    "eight_flowers": ("八仙過海", 8),
    "seven_flowers_rob": ("七搶一", 8),
    "all_chows": ("平胡", 2),
    "all_pungs": ("碰碰胡", 4),
    "three_concealed_pungs": ("三暗刻", 2),
    "four_concealed_pungs": ("四暗刻", 5),
    "five_concealed_pungs": ("五暗刻", 8),
    "after_kong": ("槓上開花", 1),
    "half_flush": ("混一色", 4),
    "full_flush": ("清一色", 8),
    "all_honors": ("字一色", 8),
    "small_three_dragons": ("小三元", 4),
    "big_three_dragons": ("大三元", 8),
    "small_four_winds": ("小四喜", 8),
    "big_four_winds": ("大四喜", 16),
    "dragon_pung": ("三元牌", 1),
    "robbing_kong": ("搶槓", 1),
    "last_tile_draw": ("海底撈月", 1),
    "last_tile_discard": ("河底撈魚", 1),
    "all_melded": ("全求", 2),
    "earthly_ready": ("地聽", 4),
    "heavenly_ready": ("天聽", 8),
    "earthly_win": ("地胡", 16),
    "heavenly_win": ("天胡", 24),
    "exposed_kong": ("明槓", 1),
    "concealed_kong": ("暗槓", 2),
    "any_flower": ("見花", 1),
    "any_wind_pung": ("見字", 1),
    "no_honors_no_flowers": ("無字無花", 1),
}

# RULES.md §6 payment options (both Taiwanese rule sets) and §5's 見花見字: id -> default.
PAYMENT_OPTIONS = {"dealer_bonus": True, "multiple_winners": False, "max_tai": None}

EXPECTED = {
    "taiwan": {"patterns": TAIWAN, "options": PAYMENT_OPTIONS,
               "events": {"heavenly_win", "earthly_win"}},
    "taiwan_zz": {"patterns": TAIWAN_ZZ, "options": {**PAYMENT_OPTIONS, "see_flower_see_word": False},
                  "events": {"heavenly_win", "earthly_win", "heavenly_ready", "earthly_ready",
                             "eight_flowers", "seven_flowers_rob"}},
}


@pytest.fixture
def listed(client):
    response = client.get("/api/rulesets")
    assert response.status_code == 200
    return {r["id"]: r for r in response.get_json()}


def test_every_registered_ruleset_is_listed(listed):
    assert set(listed) == set(RULESETS)
    assert {"taiwan", "taiwan_zz"} <= set(listed)


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_patterns_are_those_of_rules_md(listed, ruleset):
    patterns = listed[ruleset]["patterns"]
    shown = {p["id"]: (p["name"], p["value"]) for p in patterns}
    assert len(shown) == len(patterns), "a pattern id is listed twice"
    assert shown == EXPECTED[ruleset]["patterns"]


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_options_with_their_defaults(listed, ruleset):
    options = {o["id"]: o["default"] for o in listed[ruleset]["options"]}
    assert options == EXPECTED[ruleset]["options"]


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_taiwanese_rulesets_count_tai_on_seventeen_tiles(listed, ruleset):
    info = listed[ruleset]
    assert (info["unit"], info["hand_size"]) == ("tai", 17)
    assert set(info["events"]) == EXPECTED[ruleset]["events"]
    assert all(p["unit"] == "tai" for p in info["patterns"])


def test_rulesets_are_read_only(client):
    response = client.post("/api/rulesets", json={})
    assert response.status_code == 405
    assert "not allowed" in response.get_json()["message"].lower()
    assert client.get("/api/rulesets").status_code == 200
