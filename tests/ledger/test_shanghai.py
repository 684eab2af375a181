"""``shanghai`` (RULES.md §7): every 勒 pattern, every 花 source, 門清, the cap, 垃圾胡.

Expected figures are worked by hand from RULES.md §7; the comment beside each
hand gives the arithmetic. ``points`` is one share in 底分 before 荒番:
``10 × Σ勒`` for a 勒 hand, ``min((花 + 2) × 2^番, 10)`` for a 花 hand.
"""
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import tiles
from ledger.errors import InvalidHand
from ledger.rules import RULESETS, score
from tests.fuzzing import examples
from tests.ledger.strategies import winning_hands

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "worked_hands_shanghai.json"


def meld(spec: str) -> dict:
    """``"chow 234m"``, ``"pung 111z"``, ``"kong 2222m"`` (exposed) or ``"ckong 2222m"`` (暗槓)."""
    kind, shown = spec.split()
    if kind == "ckong":
        return {"kind": "kong", "tiles": shown, "concealed": True}
    return {"kind": kind, "tiles": shown}


def shanghai(concealed, win, melds=(), flowers=None, by="discard", event=None, after_kong=False,
             seat="S", dealer=None):
    hand = {"concealed": concealed, "winning_tile": win, "melds": [meld(m) for m in melds]}
    if flowers:
        hand["flowers"] = flowers
    return score("shanghai", hand, {"by": by, "event": event, "after_kong": after_kong},
                 seat_wind=seat, dealer=dealer)


def breakdown(result) -> dict:
    return {x.id: (x.value, x.unit) for x in result.patterns}


def figures(result) -> tuple:
    """(花, 勒, 番, points)."""
    extra = result.extra
    return extra["flowers"], extra["lei"], extra["fan"], extra["points"]


def rejected(**kwargs) -> str:
    with pytest.raises(InvalidHand) as error:
        shanghai(**kwargs)
    return error.value.message


# 混一色 with an exposed chow: 234m (meld) 456m 789m 123m + 白 pair; no 花, not 門清.
OPEN_HALF_FLUSH = {"concealed": "456m789m123m5z", "win": "5z", "melds": ["chow 234m"]}
# The same 混一色 all concealed: 門清.
CONCEALED_HALF_FLUSH = {"concealed": "234m456m789m123m5z", "win": "5z"}
# 碰碰胡 over three suits (a 花 hand): 888p exposed, 333s 777s 222m concealed, 5p pair; suited pungs give no 花.
OPEN_PUNGS = {"concealed": "333s777s222m5p", "win": "5p", "melds": ["pung 888p"]}
# Three suits, chows: no qualifying pattern at all.
PLAIN = {"concealed": "123m456p789s234s5p", "win": "5p"}
FULL_FLUSH = {"concealed": "123456789m234m5m", "win": "5m"}
HALF_FLUSH_PUNGS = {"concealed": "111m555m999m111z2z", "win": "2z"}


# ---- 花 hands: the seed's worked figures, 門清 and the 勒子 cap ------------------
def test_open_half_flush_without_flowers_is_the_base_two():
    result = shanghai(**OPEN_HALF_FLUSH)  # (0 + 2) × 2^0 = 2
    assert breakdown(result) == {"half_flush": (0, "fan")}
    assert figures(result) == (0, 0, 0, 2)


@pytest.mark.parametrize("flowers, count, points", [
    ("1f", 1, 3),                # 1花胡 = 3 × 底分 (seed: 1萬底分 -> 3萬)
    ("1f2f", 2, 4),              # 2花胡 = 4
    ("春夏秋冬梅蘭菊", 7, 9),       # 7花胡 = 9
    ("12345678f", 8, 10),        # 8花胡 = 10 = 勒子
])
def test_seed_worked_figures(flowers, count, points):
    result = shanghai(**OPEN_HALF_FLUSH, flowers=flowers)
    assert breakdown(result) == {"half_flush": (0, "fan"), "flower": (count, "flower")}
    assert figures(result) == (count, 0, 0, points)


def test_nine_flowers_are_capped_at_the_lei_zi():
    # 8 flowers + 東 pung = 9 花; (9 + 2) × 1 = 11 -> 勒子 10.
    result = shanghai("456m789m5z", "5z", ["chow 234m", "pung 111z"], flowers="12345678f")
    assert breakdown(result) == {"half_flush": (0, "fan"), "flower": (8, "flower"),
                                 "wind_pung": (1, "flower")}
    assert figures(result) == (9, 0, 0, 10)


def test_concealed_doubles_a_flower_hand():
    # 門清 1 番: (0 + 2) × 2 = 4, against 2 for the open hand.
    result = shanghai(**CONCEALED_HALF_FLUSH)
    assert breakdown(result) == {"half_flush": (0, "fan"), "concealed": (1, "fan")}
    assert figures(result) == (0, 0, 1, 4)


@pytest.mark.parametrize("by", ["self_draw", "robbing_kong"])
def test_concealed_holds_on_self_draw_and_robbed_kong(by):
    assert figures(shanghai(**CONCEALED_HALF_FLUSH, by=by)) == (0, 0, 1, 4)  # (0 + 2) × 2


def test_concealed_kong_keeps_the_hand_concealed():
    # 暗槓 2222m = 2 花, 門清 (R3): (2 + 2) × 2 = 8.
    result = shanghai("888p333s777s5p", "5p", ["ckong 2222m"])
    assert breakdown(result) == {"all_pungs": (0, "fan"), "concealed": (1, "fan"),
                                 "concealed_kong": (2, "flower")}
    assert figures(result) == (2, 0, 1, 8)


@pytest.mark.parametrize("flowers, points", [
    (None, 6),      # 東 暗刻 1 花: (1 + 2) × 2 = 6
    ("1f2f", 10),   # 3 花: (3 + 2) × 2 = 10, exactly the cap
    ("1f2f3f", 10),  # 4 花: (4 + 2) × 2 = 12 -> 10
])
def test_concealed_flower_hand_and_the_cap(flowers, points):
    result = shanghai("234m456m789m111z5z", "5z", flowers=flowers)
    assert result.extra["fan"] == 1 and result.extra["points"] == points


# ---- every 花 source, positive and near-miss ---------------------------------------
def test_suited_pungs_give_no_flowers():
    result = shanghai(**OPEN_PUNGS)  # 碰碰胡, 0 花: 2
    assert breakdown(result) == {"all_pungs": (0, "fan")}
    assert figures(result) == (0, 0, 0, 2)


@pytest.mark.parametrize("concealed, melds, pattern, value", [
    ("333s777s5p", ["pung 888p", "pung 111z"], "wind_pung", 1),       # 東 碰
    ("333s777s111z5p", ["pung 888p"], "wind_pung", 1),                # 東 暗刻
    ("333s777s5p", ["pung 888p", "pung 666z"], "dragon_pung", 2),     # 發 碰
    ("333s777s666z5p", ["pung 888p"], "dragon_pung", 2),              # 發 暗刻
    ("333s777s5p", ["pung 888p", "kong 2222m"], "exposed_kong", 1),   # 明槓
    ("333s777s5p", ["pung 888p", "ckong 2222m"], "concealed_kong", 2),  # 暗槓
    ("333s777s5p", ["pung 888p", "kong 1111z"], "wind_exposed_kong", 2),
    ("333s777s5p", ["pung 888p", "ckong 1111z"], "wind_concealed_kong", 3),
    ("333s777s5p", ["pung 888p", "kong 7777z"], "dragon_exposed_kong", 3),
    ("333s777s5p", ["pung 888p", "ckong 7777z"], "dragon_concealed_kong", 4),
])
def test_each_flower_source_in_an_open_all_pungs_hand(concealed, melds, pattern, value):
    result = shanghai(concealed, "5p", melds)  # not 門清: (value + 2) × 1
    assert breakdown(result) == {"all_pungs": (0, "fan"), pattern: (value, "flower")}
    assert figures(result) == (value, 0, 0, value + 2)


def test_honour_pairs_give_no_flowers():
    assert figures(shanghai("333s777s222m1z", "1z", ["pung 888p"])) == (0, 0, 0, 2)  # 東 pair
    assert figures(shanghai(**OPEN_HALF_FLUSH)) == (0, 0, 0, 2)  # 白 pair


def test_pung_completed_by_a_discard_still_counts():
    # 發 pung completed by the discarded 發 (exposed, R2) is still 2 花: (2 + 2) × 1 = 4.
    result = shanghai("333s777s66z5p5p", "6z", ["pung 888p"])
    assert breakdown(result) == {"all_pungs": (0, "fan"), "dragon_pung": (2, "flower")}
    assert figures(result) == (2, 0, 0, 4)


def test_flowers_per_item_add_up():
    # 發 and 中 pungs 2 × 2 花 + flower 冬 1 花 = 5 花: (5 + 2) × 1 = 7.
    result = shanghai("333s5p", "5p", ["pung 888p", "pung 666z", "pung 777z"], flowers="冬")
    assert breakdown(result) == {"all_pungs": (0, "fan"), "dragon_pung": (4, "flower"),
                                 "flower": (1, "flower")}
    assert figures(result) == (5, 0, 0, 7)


# ---- 勒 patterns, positive and near-miss ---------------------------------------------
def test_heavenly_win_ignores_flowers_and_concealed():
    result = shanghai(**PLAIN, flowers="1f2f", by="self_draw", event="heavenly_win", seat="E")
    assert breakdown(result) == {"heavenly_win": (10, "lei")}
    assert figures(result) == (0, 10, 0, 100)  # 10 勒 × 10


def test_heavenly_win_replaces_nothing_else():
    result = shanghai(**FULL_FLUSH, by="self_draw", event="heavenly_win", seat="E")
    assert breakdown(result) == {"heavenly_win": (10, "lei"), "full_flush": (1, "lei")}
    assert figures(result) == (0, 11, 0, 110)  # (10 + 1) × 10


def test_heavenly_win_near_misses():
    assert "垃圾胡" in rejected(**PLAIN, by="self_draw", seat="E")
    assert "dealer only" in rejected(**PLAIN, by="self_draw", event="heavenly_win", seat="S")
    assert "not by discard" in rejected(**PLAIN, event="heavenly_win", seat="E")


@pytest.mark.parametrize("by", ["discard", "self_draw"])
def test_earthly_win_is_any_non_dealer_win_in_the_first_go_around(by):
    result = shanghai(**PLAIN, by=by, event="earthly_win")
    assert breakdown(result) == {"earthly_win": (8, "lei")}
    assert figures(result) == (0, 8, 0, 80)


def test_earthly_win_adds_to_half_flush_pungs_and_not_for_the_dealer():
    result = shanghai(**HALF_FLUSH_PUNGS, event="earthly_win")
    assert breakdown(result) == {"earthly_win": (8, "lei"), "half_flush_pungs": (1, "lei")}
    assert figures(result) == (0, 9, 0, 90)
    assert "non-dealer" in rejected(**PLAIN, event="earthly_win", seat="E")


def test_eight_flowers_is_scored_alone_without_a_hand():
    result = score("shanghai", {"flowers": "春夏秋冬梅蘭菊竹"}, {"by": "self_draw", "event": "eight_flowers"})
    assert breakdown(result) == {"eight_flowers": (4, "lei")}
    assert figures(result) == (0, 4, 0, 40)


def test_eight_flowers_needs_all_eight():
    with pytest.raises(InvalidHand, match="needs 8 flowers, got 7"):
        score("shanghai", {"flowers": "1234567f"}, {"by": "self_draw", "event": "eight_flowers"})


def test_all_honours_pungs_is_zi_yi_se_not_luan_feng_xiang():
    result = shanghai("1112223334445z", "5z")  # 4 勒, 亂風向 replaced, 門清 ignored
    assert breakdown(result) == {"all_honors": (4, "lei")}
    assert figures(result) == (0, 4, 0, 40)


def test_all_honours_without_shape_is_luan_feng_xiang():
    result = shanghai("1122334455667z", "7z")  # seven honour pairs: no sets, 2 勒
    assert breakdown(result) == {"all_honors_any": (2, "lei")}
    assert figures(result) == (0, 2, 0, 20)
    assert result.reading is None


def test_luan_feng_xiang_with_a_melded_pung():
    result = shanghai("2233445566z", "7z", ["pung 111z"])
    assert breakdown(result) == {"all_honors_any": (2, "lei")}


def test_one_suited_tile_breaks_luan_feng_xiang():
    assert "no legal shape" in rejected(concealed="112233445566z1m", win="7z")


def test_full_flush_pungs_is_the_best_reading():
    # 111 222 333 444 55m: 清碰 2 勒; read as three 123m chows it would be 清一色 1 勒 (R1).
    result = shanghai("1112223334445m", "5m")
    assert breakdown(result) == {"full_flush_pungs": (2, "lei")}
    assert figures(result) == (0, 2, 0, 20)
    assert all(g.is_pung for g in result.reading.sets)


def test_full_flush_with_a_chow_is_not_full_flush_pungs():
    result = shanghai(**FULL_FLUSH)  # 清一色 1 勒; 門清 does not double a 勒 hand
    assert breakdown(result) == {"full_flush": (1, "lei")}
    assert figures(result) == (0, 1, 0, 10)


def test_open_full_flush_is_worth_the_same():
    assert figures(shanghai("456789m234m5m", "5m", ["chow 123m"])) == (0, 1, 0, 10)


def test_half_flush_is_not_full_flush():
    assert "full_flush" not in breakdown(shanghai(**OPEN_HALF_FLUSH))


def test_half_flush_pungs_replaces_half_flush_and_all_pungs():
    result = shanghai(**HALF_FLUSH_PUNGS)  # 混碰 1 勒; the 東 pung's 花 does not count
    assert breakdown(result) == {"half_flush_pungs": (1, "lei")}
    assert figures(result) == (0, 1, 0, 10)


def test_all_pungs_over_two_suits_is_not_half_flush_pungs():
    assert breakdown(shanghai(**OPEN_PUNGS)) == {"all_pungs": (0, "fan")}


@pytest.mark.parametrize("fourth", ["chow 234s", "ckong 2222m"])
def test_big_hanging_four_melds_one_tile_left(fourth):
    result = shanghai("9p", "9p", ["chow 123p", "chow 456s", "pung 777m", fourth])
    assert breakdown(result) == {"big_hanging": (1, "lei")}
    assert figures(result) == (0, 1, 0, 10)


def test_three_melds_are_not_big_hanging():
    assert "垃圾胡" in rejected(concealed="234s9p", win="9p", melds=["chow 123p", "chow 456s", "pung 777m"])


def test_big_hanging_needs_the_single_tile_paired():
    # Four honour pungs melded, 白 left, 發 won: no pair, so 亂風向 2 勒 only, not 大吊車.
    result = shanghai("5z", "6z", ["pung 111z", "pung 222z", "pung 333z", "pung 444z"])
    assert breakdown(result) == {"all_honors_any": (2, "lei")}
    assert figures(result) == (0, 2, 0, 20)


def test_big_hanging_adds_to_half_flush_pungs():
    result = shanghai("7z", "7z", ["pung 111z", "pung 555m", "pung 999m", "pung 222m"])
    assert breakdown(result) == {"half_flush_pungs": (1, "lei"), "big_hanging": (1, "lei")}
    assert figures(result) == (0, 2, 0, 20)


def test_after_kong():
    result = shanghai("123m456p789s9p", "9p", ["kong 5555s"], by="self_draw", after_kong=True)
    assert breakdown(result) == {"after_kong": (1, "lei")}
    assert figures(result) == (0, 1, 0, 10)


def test_after_kong_near_misses():
    assert "垃圾胡" in rejected(concealed="123m456p789s9p", win="9p", melds=["kong 5555s"], by="self_draw")
    assert "self-draw" in rejected(concealed="123m456p789s9p", win="9p", melds=["kong 5555s"],
                                   after_kong=True)


def test_three_lei_patterns_add_up():
    # 清一色 1 + 大吊車 1 + 槓開 1 = 3 勒 = 30.
    result = shanghai("9m", "9m", ["chow 123m", "pung 555m", "chow 789m", "kong 4444m"],
                      by="self_draw", after_kong=True)
    assert breakdown(result) == {"full_flush": (1, "lei"), "big_hanging": (1, "lei"),
                                 "after_kong": (1, "lei")}
    assert figures(result) == (0, 3, 0, 30)


# ---- the qualifying-hand rule and validation -----------------------------------------
def test_plain_hand_is_rejected_as_la_ji_hu():
    with pytest.raises(InvalidHand) as error:
        shanghai(**PLAIN, flowers="1f2f3f")
    assert "垃圾胡" in error.value.message and "清混碰" in error.value.message
    assert "plain hand" in error.value.message
    assert error.value.field == "hand"


def test_a_reading_that_qualifies_beats_one_that_does_not():
    # 111 222 333p: pungs make 碰碰胡 (qualifies), chows a plain hand. 門清: (0 + 2) × 2 = 4.
    result = shanghai("111222333p888s5m", "5m")
    assert breakdown(result) == {"all_pungs": (0, "fan"), "concealed": (1, "fan")}
    assert figures(result) == (0, 0, 1, 4)


@pytest.mark.parametrize("concealed, melds, got", [
    ("123m456p789s234s", [], 13),                 # one tile short
    ("123m456p789s234s5p5p", [], 15),
    ("123m456p789s234s5p", ["pung 111z"], 17),    # a Taiwanese count
])
def test_wrong_tile_count(concealed, melds, got):
    message = rejected(concealed=concealed, win="5p", melds=melds)
    assert "wrong tile count" in message and f"= {got}, expected 14" in message


def test_result_fields_for_the_api():
    body = shanghai(**OPEN_HALF_FLUSH, flowers="1f").to_dict()
    assert body["unit"] == "flower"
    assert body["total"] == 1  # 混一色 0 番 + 花牌 1 花
    assert (body["flowers"], body["lei"], body["fan"], body["points"]) == (1, 0, 0, 3)
    assert {(x["id"], x["unit"]) for x in body["patterns"]} == {("half_flush", "fan"), ("flower", "flower")}


def test_describe_lists_patterns_with_units_and_no_options():
    described = RULESETS["shanghai"].describe()
    assert described["hand_size"] == 14 and described["options"] == []
    lei = {x["id"]: x["value"] for x in described["patterns"] if x["unit"] == "lei"}
    assert lei == {"heavenly_win": 10, "earthly_win": 8, "eight_flowers": 4, "all_honors": 4,
                   "all_honors_any": 2, "full_flush_pungs": 2, "full_flush": 1, "half_flush_pungs": 1,
                   "big_hanging": 1, "after_kong": 1}
    replaces = {x["id"]: set(x["replaces"]) for x in described["patterns"] if "replaces" in x}
    assert replaces == {"all_honors": {"all_honors_any"}, "full_flush_pungs": {"full_flush", "all_pungs"},
                        "half_flush_pungs": {"half_flush", "all_pungs"}}


# ---- worked fixtures -------------------------------------------------------------------
def _fixture_cases():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))["hands"]


@pytest.mark.parametrize("case", _fixture_cases(), ids=lambda case: case["name"])
def test_worked_fixture(case):
    request = case["request"]
    result = score(request["ruleset"], request.get("hand"), request.get("win"),
                   seat_wind=request.get("seat_wind", "E"), dealer=request.get("dealer"))
    expected = case["expected"]
    assert breakdown(result) == {x["id"]: (x["value"], x["unit"]) for x in expected["patterns"]}
    assert result.total == expected["total"]
    assert figures(result) == (expected["flowers"], expected["lei"], expected["fan"], expected["points"])


# ---- properties ----------------------------------------------------------------------------
HONOURS = tuple(range(27, 34))


def expected_to_qualify(hand: dict, win: dict) -> bool:
    """Independent of the engine: a legal 14-tile hand qualifies when it is one suit (or honours
    only: 清一色, 混一色, 字一色), has four melds (大吊車), was won after a kong (槓開), or can be read
    as all pungs (碰碰胡): every meld a pung or kong and the concealed tiles + winning tile 3s and one 2."""
    concealed = tiles.parse(hand["concealed"]) + tiles.parse(hand["winning_tile"])
    melded = [t for m in hand["melds"] for t in tiles.parse(m["tiles"])]
    suits = {tiles.suit(t) for t in concealed + melded if tiles.is_suited(t)}
    counts = sorted(Counter(concealed).values())
    all_pungs = (all(m["kind"] != "chow" for m in hand["melds"]) and counts.count(2) == 1
                 and set(counts) <= {2, 3})
    return len(suits) <= 1 or len(hand["melds"]) == 4 or win["after_kong"] or all_pungs


@st.composite
def honour_hands(draw):
    """Fourteen honours in any arrangement, all concealed: 字一色 when they form sets + pair, else 亂風向."""
    used: Counter = Counter()
    hidden = []
    for _ in range(14):
        tile = draw(st.sampled_from(tuple(t for t in HONOURS if used[t] < 4)))  # a tuple: a strategy hypothesis caches
        used[tile] += 1
        hidden.append(tile)
    win = hidden.pop(draw(st.integers(0, 13)))
    flowers = draw(st.sets(st.sampled_from(tiles.FLOWERS), max_size=8))
    hand = {"concealed": tiles.to_compact(hidden), "melds": [], "winning_tile": tiles.code(win),
            "flowers": tiles.to_compact(flowers)}
    return hand, {"by": draw(st.sampled_from(("discard", "self_draw", "robbing_kong"))), "after_kong": False}


QUALIFYING_HANDS = st.one_of(winning_hands(14).filter(lambda drawn: expected_to_qualify(*drawn)), honour_hands())
PROPERTY_SETTINGS = settings(max_examples=examples(bounded=75, deep=300), deadline=None,
                             suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def assert_adds_up(result) -> None:
    values = {unit: sum(x.value for x in result.patterns if x.unit == unit) for unit in ("lei", "flower", "fan")}
    assert result.total == sum(x.value for x in result.patterns)
    flowers, lei, fan, points = figures(result)
    if lei:
        assert {x.unit for x in result.patterns} == {"lei"}
        assert (lei, flowers, fan, points) == (values["lei"], 0, 0, 10 * lei)
    else:
        assert (flowers, fan) == (values["flower"], values["fan"])
        assert points == min((flowers + 2) * 2 ** fan, 10)
        assert {"half_flush", "all_pungs"} & {x.id for x in result.patterns}


@PROPERTY_SETTINGS
@given(winning_hands(14), st.booleans())
def test_a_legal_hand_scores_exactly_when_it_qualifies(drawn, earthly):
    hand, win = drawn
    win = dict(win, event="earthly_win" if earthly else None)
    if earthly or expected_to_qualify(hand, win):
        assert_adds_up(score("shanghai", hand, win, seat_wind="S"))
    else:
        with pytest.raises(InvalidHand, match="垃圾胡"):
            score("shanghai", hand, win, seat_wind="S")


@PROPERTY_SETTINGS
@given(honour_hands())
def test_all_honour_hands_always_win(drawn):
    result = score("shanghai", *drawn, seat_wind="S")
    assert_adds_up(result)
    assert {x.id for x in result.patterns} in ({"all_honors"}, {"all_honors_any"})


def _renotated(hand: dict, seed: int) -> dict:
    """The same hand in Chinese names, concealed tiles and melds shuffled."""
    rng = random.Random(seed)
    concealed = tiles.names(tiles.parse(hand["concealed"]))
    rng.shuffle(concealed)
    melds = [dict(m, tiles=tiles.names(tiles.parse(m["tiles"]))) for m in hand["melds"]]
    rng.shuffle(melds)
    return {"concealed": concealed, "melds": melds, "winning_tile": tiles.names(tiles.parse(hand["winning_tile"])),
            "flowers": "".join(tiles.names(tiles.parse(hand["flowers"])))}


def _shown(result) -> dict:
    body = result.to_dict()
    body["sets"] = sorted(body["sets"])
    return body


@PROPERTY_SETTINGS
@given(QUALIFYING_HANDS, st.integers(0, 2 ** 16))
def test_order_and_notation_do_not_change_the_result(drawn, seed):
    hand, win = drawn
    plain = score("shanghai", hand, win, seat_wind="S")
    assert _shown(score("shanghai", _renotated(hand, seed), win, seat_wind="S")) == _shown(plain)
