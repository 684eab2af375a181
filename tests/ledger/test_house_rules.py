"""House rules (RULES.md §8, ``ledger.house_rules``): evenings worked by hand, properties, refusals.

The three ``fixtures/evening_house_rules_*.json`` evenings (one per base rule
set) change three values or more, switch a pattern off and one on, use the
``1+n`` dealer extra (Taiwanese) or a raised 勒子 cap (shanghai), and hold a
詐胡 by the dealer and one by a non-dealer; every payment is worked out in
the fixture's ``why`` from RULES.md. The API tests replay the same files over HTTP.
"""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ledger import house_rules as profile
from ledger.errors import InvalidRequest, LedgerError, SwitchedOff
from ledger.payments import Stakes, false_win_payments
from ledger.presets import PRESETS
from ledger.recorder import Recorder
from ledger.rules import get_ruleset, score
from ledger.scoring import Scorer
from ledger.table import HandEntry, Table
from tests.fuzzing import examples
from tests.ledger.strategies import seats, winning_hands

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EVENINGS = ["evening_house_rules_taiwan.json", "evening_house_rules_taiwan_zz.json",
            "evening_house_rules_shanghai.json"]
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
STAKES = {"taiwan": {"base": 100, "per_tai": 20}, "taiwan_zz": {"base": 100, "per_tai": 20},
          "shanghai": {"base": 10}}
PROPERTY = settings(max_examples=examples(bounded=30, deep=120), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def scorer(ruleset_id, house_rules, options=None):
    return profile.scorer(ruleset_id, options or {}, house_rules)


def ids_and_values(result):
    return {p.id: p.value for p in result.patterns}


# -- the evenings worked by hand -------------------------------------------------------


@pytest.mark.parametrize("name", EVENINGS)
def test_the_evening_asks_what_the_issue_asks(name):
    evening = load(name)
    rules, bodies = evening["house_rules"], [e["hand"] for e in evening["events"]]
    assert len(rules["values"]) >= 3 and rules["off"]
    if evening["ruleset"] == "shanghai":
        assert rules["lei_cap"] != 10  # shanghai has no dealer extra: the cap is its money rule
    else:
        assert rules["dealer_extra"] == "1+n" and rules["on"]
    offenders = [body["false_win"] for body in bodies if "false_win" in body]
    dealers = [e["expect"]["dealer"] for e in evening["events"] if "false_win" in e["hand"]]
    assert [o == d for o, d in zip(offenders, dealers)] == [True, False]
    summed = dict.fromkeys(evening["totals"], 0)
    for event in evening["events"]:
        assert event["why"] and sum(event["expect"]["payments"].values()) == 0
        for player, amount in event["expect"]["payments"].items():
            summed[player] += amount
    assert summed == evening["totals"]


@pytest.mark.parametrize("name", EVENINGS)
def test_replaying_the_evening_gives_every_payment_breakdown_and_total(name):
    evening = load(name)
    recorder = Recorder.start(evening["ruleset"], evening["players"], evening["stakes"], evening["options"],
                              evening["house_rules"])
    for event in evening["events"]:
        result, expected = recorder.record("hand", event["hand"]), event["expect"]
        assert {key: result[key] for key in ("dealer", "streak", "round_wind", "hand_wind", "wasteland",
                                             "payments")} == {key: expected[key] for key in (
            "dealer", "streak", "round_wind", "hand_wind", "wasteland", "payments")}
        assert {key: result["after"][key] for key in expected["state"]} == expected["state"]
        breakdowns = {s["player"]: {p["id"]: p["value"] for p in s["score"]["patterns"]} for s in result["scores"]}
        assert breakdowns == expected.get("patterns", {})
    assert recorder.totals == evening["totals"]


@pytest.mark.parametrize("name", EVENINGS)
def test_the_same_hands_under_the_base_rules_pay_otherwise(name):
    """The house rules are what makes the fixture's numbers: without them the totals differ."""
    evening = load(name)
    recorder = Recorder.start(evening["ruleset"], evening["players"], evening["stakes"], evening["options"])
    for event in evening["events"]:
        recorder.record("hand", event["hand"])
    assert recorder.totals != evening["totals"]


# -- 詐胡 ------------------------------------------------------------------------------


def test_a_false_win_moves_nothing_on_and_counts_as_a_hand():
    table = Table.start("shanghai", PLAYERS, {"base": 10}, {})
    table.apply(HandEntry(draw="exhausted"))  # H 1, Amy keeps the deal (streak 1)
    before = table.state
    result = table.apply(HandEntry(false_win="Dan"))
    # default penalty: a self-drawn 10 points, 10 × 10 = 100 each, not doubled although H is 1
    assert result.payments == {"Amy": 100, "Ben": 100, "Cat": 100, "Dan": -300}
    assert table.state == before._replace(hands_played=before.hands_played + 1)


def test_the_default_false_win_is_max_tai_when_set():
    # max_tai 5, dealer_bonus off: Ben gets 100 + 20 × 5 = 200 from Cat, as do Amy and Dan
    payments = false_win_payments(HandEntry(false_win="Cat"), PLAYERS, "taiwan", "Amy", 2, Stakes(100, 20),
                                  {"max_tai": 5, "dealer_bonus": False})
    assert payments == {"Amy": 200, "Ben": 200, "Cat": -600, "Dan": 200}


def test_the_dealer_extra_cap_applies_to_wins_and_false_wins():
    table = Table.start("taiwan", PLAYERS, STAKES["taiwan"], {}, {"max_dealer_extra": 4})
    for _ in range(3):
        table.apply(HandEntry(draw="exhausted"))  # Amy keeps the deal: streak 3, 1 + 2×3 = 7, capped at 4
    # Ben's 詐胡 (8 台 by default): dealer Amy gets 100 + 20×(8+4) = 340, Cat and Dan 100 + 20×8 = 260
    assert table.apply(HandEntry(false_win="Ben")).payments == {"Amy": 340, "Ben": -860, "Cat": 260, "Dan": 260}


@pytest.mark.parametrize("body, field", [
    ({"false_win": "Eve"}, "false_win"),
    ({"false_win": "Cat", "by": "self_draw"}, "by"),
    ({"false_win": "Cat", "winners": [{"player": "Amy", "tai": 1}]}, "winners"),
    ({"false_win": "Cat", "draw": True}, "draw"),
])
def test_a_false_win_names_only_a_seated_offender(body, field):
    recorder = Recorder.start("taiwan", PLAYERS, STAKES["taiwan"], {})
    with pytest.raises(InvalidRequest) as refused:
        recorder.record("hand", body)
    assert refused.value.field == field
    assert recorder.state.hands_played == 0


def test_a_false_win_in_shanghai_takes_no_dice():
    recorder = Recorder.start("shanghai", PLAYERS, {"base": 10}, {})
    with pytest.raises(InvalidRequest) as refused:
        recorder.record("hand", {"false_win": "Cat", "dice": [1, 1]})
    assert refused.value.field == "dice"


# -- patterns: values, off, on, 半求 ----------------------------------------------------

HALF_MELDED = {"concealed": "5p", "winning_tile": "5p",
               "melds": [{"kind": "chow", "tiles": "123m"}, {"kind": "pung", "tiles": "777s"},
                         {"kind": "chow", "tiles": "456p"}, {"kind": "pung", "tiles": "999m"},
                         {"kind": "chow", "tiles": "234s"}]}


def test_half_melded_counts_once_switched_on_and_adds_to_self_draw():
    plain = score("taiwan", HALF_MELDED, {"by": "self_draw"}, seat_wind="S")
    assert ids_and_values(plain) == {"self_draw": 1}
    on = scorer("taiwan", {"on": ["half_melded"]}).score(HALF_MELDED, {"by": "self_draw"}, seat_wind="S")
    assert ids_and_values(on) == {"self_draw": 1, "half_melded": 1}
    on_discard = scorer("taiwan_zz", {"on": ["half_melded"]}).score(HALF_MELDED, {"by": "discard"}, seat_wind="S")
    assert ids_and_values(on_discard) == {"all_melded": 2, "single_wait": 1}  # 全求, not 半求


def test_a_switched_off_pattern_lets_what_it_replaced_count_again():
    """taiwan, four concealed pungs self-drawn by a non-dealer (seat S): 門清一摸三 3 + 四暗刻 6 = 9 台.

    四暗刻 off (RULES.md §8): the rule set is played as if it did not have it, so 三暗刻 (2), which it
    replaced (R8), counts again: 3 + 2 = 5 台.
    """
    hand = {"concealed": "111m555m222p789p333s4s", "winning_tile": "4s"}
    base = score("taiwan", hand, {"by": "self_draw"}, seat_wind="S")
    assert ids_and_values(base) == {"concealed_self_draw": 3, "four_concealed_pungs": 6}
    result = scorer("taiwan", {"off": ["four_concealed_pungs"]}).score(hand, {"by": "self_draw"}, seat_wind="S")
    assert ids_and_values(result) == {"concealed_self_draw": 3, "three_concealed_pungs": 2}
    assert result.total == 5


def test_full_flush_pungs_off_scores_the_full_flush_the_pungs_hand_is():
    """shanghai, 111m 333m 555m 999m + 77m, won on a discard: 清碰 2 勒 = 20 points (底分).

    清碰 off: 清一色 (1 勒) and 碰碰胡 count again. 碰碰胡 is a 0-番 qualifier, which a 勒 hand does not list
    (RULES.md §7, ``ledger.rules.shanghai``): the hand is 清一色 1 勒 = 10 points, a win, not 垃圾胡.
    """
    hand = {"concealed": "111m333m555m999m7m", "winning_tile": "7m"}
    base = score("shanghai", hand, {"by": "discard"})
    assert ids_and_values(base) == {"full_flush_pungs": 2} and base.extra["points"] == 20
    result = scorer("shanghai", {"off": ["full_flush_pungs"]}).score(hand, {"by": "discard"})
    assert ids_and_values(result) == {"full_flush": 1}
    assert result.extra == {"flowers": 0, "lei": 1, "fan": 0, "points": 10}


def test_half_flush_pungs_off_scores_half_flush_and_all_pungs_and_the_flowers():
    """shanghai, 111m 999m 東東東 concealed, 白白白 melded, pair 77m, won on a discard: 混碰 1 勒 = 10 points.

    混碰 off: 混一色 and 碰碰胡 (0 番 each) count again, so it is a 花 hand: the 東 pung 1 花 and the 白 pung
    2 花 = 3 花, no 門清 (a meld), 0 番: (3 + 2) × 2^0 = 5 points; listed: 混一色, 碰碰胡, 東, 白.
    """
    hand = {"concealed": "111m999m7m111z", "winning_tile": "7m", "melds": [{"kind": "pung", "tiles": "555z"}]}
    base = score("shanghai", hand, {"by": "discard"})
    assert ids_and_values(base) == {"half_flush_pungs": 1} and base.extra["points"] == 10
    result = scorer("shanghai", {"off": ["half_flush_pungs"]}).score(hand, {"by": "discard"})
    assert ids_and_values(result) == {"half_flush": 0, "all_pungs": 0, "wind_pung": 1, "dragon_pung": 2}
    assert result.extra == {"flowers": 3, "lei": 0, "fan": 0, "points": 5}


#: 門清 / 自摸 / 門清一摸三 (門清自摸) worked by hand from RULES.md R3, R5, R8, §4, §5 and §8, with the pattern
#: on and switched off. taiwan: 123m 456m 789p 234s 56s 55p + 7s, 平胡 2 (two-sided 56s); open: 123m melded.
#: taiwan_zz: 234m 567m 345p 678s 中中 99s + 中, 三元牌 1 (waits 中 and 9s); open: 中中中 melded, + 9s.
CONCEALED = {"taiwan": {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"},
             "taiwan_zz": {"concealed": "234m567m345p678s77z99s", "winning_tile": "7z"}}
OPEN = {"taiwan": {"concealed": "456m789p234s56s55p", "winning_tile": "7s", "melds": [{"kind": "chow", "tiles": "123m"}]},
        "taiwan_zz": {"concealed": "234m567m345p678s9s", "winning_tile": "9s",
                      "melds": [{"kind": "pung", "tiles": "777z"}]}}
OTHER = {"taiwan": {"all_chows": 2}, "taiwan_zz": {"dragon_pung": 1}}


@pytest.mark.parametrize("ruleset", ["taiwan", "taiwan_zz"])
@pytest.mark.parametrize("off", [False, True])
@pytest.mark.parametrize("hand, by, on, switched_off", [
    # a concealed self-draw: 門清一摸三 3 in place of 門清 and 自摸 (R8); switched off, 門清 1 + 自摸 1
    (CONCEALED, "self_draw", {"concealed_self_draw": 3}, {"concealed": 1, "self_draw": 1}),
    # 門清 on a discard or a robbed kong (R5 keeps 門清, not 門清自摸); never 自摸
    (CONCEALED, "discard", {"concealed": 1}, {"concealed": 1}),
    # an open hand self-drawn: 自摸 alone, never 門清
    (OPEN, "self_draw", {"self_draw": 1}, {"self_draw": 1}),
    # an open hand on a discard: none of the three
    (OPEN, "discard", {}, {}),
])
def test_concealed_and_self_draw_with_concealed_self_draw_on_and_off(ruleset, off, hand, by, on, switched_off):
    """The same totals as ever with the pattern on; 門清 + 自摸 with it off (RULES.md §8), each only where its
    own row (R3, any own draw) matches."""
    result = scorer(ruleset, {"off": ["concealed_self_draw"]} if off else {}).score(
        hand[ruleset], {"by": by}, seat_wind="S")
    assert ids_and_values(result) == {**(switched_off if off else on), **OTHER[ruleset]}


@pytest.mark.parametrize("ruleset, extra", [("taiwan", {}), ("taiwan_zz", {"robbing_kong": 1})])
def test_a_robbed_kong_keeps_concealed_and_is_no_self_draw_with_the_pattern_on_or_off(ruleset, extra):
    """R5: 搶槓 is paid like a discard and keeps 門清 (not 門清自摸); switching 門清自摸 off brings no 自摸."""
    for house in ({}, {"off": ["concealed_self_draw"]}):
        result = scorer(ruleset, house).score(CONCEALED[ruleset], {"by": "robbing_kong"}, seat_wind="S")
        assert ids_and_values(result) == {"concealed": 1, **OTHER[ruleset], **extra}


@pytest.mark.parametrize("ruleset, value", [("taiwan", 8), ("taiwan_zz", 24)])
def test_heavenly_win_still_replaces_concealed_and_self_draw_once_concealed_self_draw_is_off(ruleset, value):
    """R8: 天胡 replaces 門清, 自摸 and 門清自摸, so switching 門清一摸三 off brings back neither of the two."""
    result = scorer(ruleset, {"off": ["concealed_self_draw"]}).score(
        CONCEALED[ruleset], {"by": "self_draw", "event": "heavenly_win"}, seat_wind="E", dealer=True)
    assert ids_and_values(result) == {"heavenly_win": value, **OTHER[ruleset]}


def test_a_pattern_switched_on_is_replaced_as_r8_says():
    """taiwan_zz with taiwan's 風牌 on: 大四喜 replaces it, as it does in taiwan."""
    hand = {"concealed": "111z222z333z444z123p5p", "winning_tile": "5p"}
    result = scorer("taiwan_zz", {"on": ["hand_wind"]}).score(hand, {"by": "discard"}, seat_wind="E",
                                                              hand_wind="E")
    assert "hand_wind" not in ids_and_values(result)
    assert ids_and_values(result)["big_four_winds"] == 16


def test_a_flower_event_switched_on_is_paid_as_in_its_own_rule_set():
    recorder = Recorder.start("taiwan", PLAYERS, STAKES["taiwan"], {}, {"on": ["eight_flowers"]})
    result = recorder.record("hand", {"winners": [{"player": "Cat", "hand": {"flowers": "12345678f"},
                                                   "win": {"event": "eight_flowers"}}], "by": "discard",
                                      "discarder": "Ben"})
    # 八仙過海 8 台 is paid as a self-draw: Ben and Dan 100 + 20×8 = 260, dealer Amy 100 + 20×(8+1) = 280
    assert result["payments"] == {"Amy": -280, "Ben": -260, "Cat": 800, "Dan": -260}


def test_a_flower_event_switched_off_cannot_be_recorded_and_says_the_table_switched_it_off():
    recorder = Recorder.start("taiwan_zz", PLAYERS, STAKES["taiwan_zz"], {}, {"off": ["eight_flowers"]})
    with pytest.raises(SwitchedOff) as refused:
        recorder.record("hand", {"winners": [{"player": "Cat", "tai": 8, "event": "eight_flowers"}],
                                 "by": "self_draw"})
    assert refused.value.field == "winners[0].event" and refused.value.pattern == "eight_flowers"
    assert "switched off at this table" in refused.value.message
    with pytest.raises(SwitchedOff) as refused:  # a full entry too, named by its winner
        recorder.record("hand", {"winners": [{"player": "Cat", "hand": {"flowers": "12345678f"},
                                              "win": {"event": "eight_flowers"}}], "by": "self_draw"})
    assert refused.value.field == "winners[0].win.event"


def test_a_value_counted_per_item_keeps_counting_per_item():
    hand = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s", "flowers": "1f5f"}
    result = scorer("taiwan", {"values": {"seat_flower": 3}}).score(hand, {"by": "discard"}, seat_wind="E")
    assert ids_and_values(result)["seat_flower"] == 6  # 春 and 梅 are both 東's: 2 × 3


def test_the_lei_cap_caps_flower_hands_only():
    hand = {"concealed": "123m456m111z777z5m", "winning_tile": "5m"}
    assert score("shanghai", hand, {"by": "self_draw"}).extra["points"] == 10
    # 1 + 2 花, 門清 1 番: (3 + 2) × 2 = 10 under any cap of 10 or more; a cap of 6 cuts it
    assert scorer("shanghai", {"lei_cap": 6}).score(hand, {"by": "self_draw"}).extra["points"] == 6


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: f"{preset.ruleset}-{preset.id}")
def test_every_preset_is_valid_canonical_house_rules(preset):
    assert profile.check_house_rules(preset.ruleset, preset.house_rules) == preset.house_rules
    # Named and described in every language of the page: English, 繁體中文 ("zh") and 简体中文 ("zh-Hans").
    for texts in (preset.name, preset.description):
        assert set(texts) == {"en", "zh", "zh-Hans"} and all(texts.values())


# -- refusals --------------------------------------------------------------------------

REFUSALS = [
    ("taiwan", "not an object", "house_rules", "must be an object"),
    ("taiwan", {"colour": "red"}, "house_rules.colour", "unknown key"),
    ("taiwan", {"values": {"dragon_tiles": 2}}, "house_rules.values.dragon_tiles", "unknown pattern"),
    ("taiwan", {"values": []}, "house_rules.values", "must be an object"),
    ("taiwan", {"values": {"big_four_winds": 1001}}, "house_rules.values.big_four_winds", "0 to 1000"),
    ("taiwan", {"values": {"big_four_winds": -1}}, "house_rules.values.big_four_winds", "0 to 1000"),
    ("taiwan", {"values": {"big_four_winds": 8.5}}, "house_rules.values.big_four_winds", "whole number"),
    ("taiwan", {"values": {"big_four_winds": True}}, "house_rules.values.big_four_winds", "whole number"),
    ("taiwan", {"values": {"single_wait": 2}}, "house_rules.values.single_wait", "switch it on first"),
    ("taiwan_zz", {"values": {"no_points": 1}}, "house_rules.values.no_points", "cannot change it"),
    ("taiwan", {"off": "all_simples"}, "house_rules.off", "must be a list"),
    ("taiwan", {"off": ["all_simples", "nothing"]}, "house_rules.off[1]", "unknown pattern"),
    ("taiwan", {"off": [3]}, "house_rules.off[0]", "unknown pattern"),
    ("taiwan", {"on": ["all_simples"]}, "house_rules.on[0]", "already"),
    ("taiwan", {"on": ["wind_pung"]}, "house_rules.on[0]", "unknown pattern"),
    ("taiwan_zz", {"on": ["no_points"]}, "house_rules.on[0]", "cannot change it"),
    ("shanghai", {"on": ["half_melded"]}, "house_rules.on[0]", "allowed: none"),
    ("taiwan", {"on": ["single_wait"], "off": ["single_wait"]}, "house_rules.off[0]", "on and off at once"),
    ("taiwan", {"dealer_extra": "2n"}, "house_rules.dealer_extra", "1+2n, 1+n, none"),
    ("shanghai", {"dealer_extra": "1+n"}, "house_rules.dealer_extra", "taiwan and taiwan_zz only"),
    ("shanghai", {"max_dealer_extra": 3}, "house_rules.max_dealer_extra", "taiwan and taiwan_zz only"),
    ("taiwan", {"max_dealer_extra": -1}, "house_rules.max_dealer_extra", "0 to 1000"),
    ("taiwan", {"lei_cap": 20}, "house_rules.lei_cap", "shanghai only"),
    ("shanghai", {"lei_cap": 0}, "house_rules.lei_cap", "1 to 1000"),
    ("taiwan", {"false_win": 8}, "house_rules.false_win", "as_self_draw"),
    ("taiwan", {"false_win": {"as_self_draw": 8, "amount": 100}}, "house_rules.false_win", "as_self_draw"),
    ("taiwan", {"false_win": {"penalty": 8}}, "house_rules.false_win", "as_self_draw"),
    ("taiwan", {"false_win": {"as_self_draw": 1001}}, "house_rules.false_win.as_self_draw", "0 to 1000"),
    ("taiwan", {"false_win": {"amount": 1_000_001}}, "house_rules.false_win.amount", "0 to 1000000"),
]


@pytest.mark.parametrize("ruleset_id, rules, field, words", REFUSALS)
def test_a_bad_override_is_refused_naming_its_field(ruleset_id, rules, field, words):
    with pytest.raises(InvalidRequest) as refused:
        Table.start(ruleset_id, PLAYERS, STAKES[ruleset_id], {}, rules)
    assert refused.value.field == field
    assert words in refused.value.message


def test_a_dealer_extra_contradicting_dealer_bonus_off_is_refused():
    with pytest.raises(InvalidRequest) as refused:
        Table.start("taiwan", PLAYERS, STAKES["taiwan"], {"dealer_bonus": False}, {"dealer_extra": "1+n"})
    assert refused.value.field == "house_rules.dealer_extra"
    Table.start("taiwan", PLAYERS, STAKES["taiwan"], {"dealer_bonus": False}, {"dealer_extra": "none"})


def test_the_checked_document_is_canonical():
    assert profile.check_house_rules("taiwan", {"off": ["all_simples", "concealed", "all_simples"],
                                                "values": {"half_flush": 6}, "false_win": None}) == {
        "off": ["all_simples", "concealed"], "values": {"half_flush": 6}}
    assert profile.check_house_rules("taiwan", None) == profile.check_house_rules("taiwan", {}) == {}


# -- properties ------------------------------------------------------------------------


def same_values(ruleset_id):
    """House rules that name every pattern at its own value, the dealer extra and 詐胡 as the defaults."""
    rules = {"values": {p: get_ruleset(ruleset_id).pattern(p).value for p in profile.changeable(ruleset_id)},
             "off": [], "on": [], "false_win": {"as_self_draw": 10 if ruleset_id == "shanghai" else 8}}
    if ruleset_id != "shanghai":
        rules["dealer_extra"] = "1+2n"
    else:
        rules["lei_cap"] = 10
    return rules


@PROPERTY
@given(st.sampled_from(("taiwan", "taiwan_zz", "shanghai")), st.data(), seats())
def test_a_profile_that_overrides_nothing_scores_like_the_base_rule_set(ruleset_id, data, winds):
    hand, win = data.draw(winning_hands(17 if ruleset_id != "shanghai" else 14))
    house = scorer(ruleset_id, same_values(ruleset_id))
    assert house.ruleset is not get_ruleset(ruleset_id)  # a derived rule set, really built
    try:
        base = Scorer(get_ruleset(ruleset_id)).score(hand, win, **winds)
    except LedgerError as refused:
        with pytest.raises(type(refused)) as also:
            house.score(hand, win, **winds)
        assert also.value.message == refused.message
        return
    assert house.score(hand, win, **winds).to_dict() == base.to_dict()


def evening_bodies(ruleset_id, data):
    """A random evening of full and quick entries, draws and false wins, as request bodies."""
    bodies = []
    for _ in range(data.draw(st.integers(1, 8), label="hands")):
        kind = data.draw(st.sampled_from(("full", "quick", "draw", "false_win")))
        player = data.draw(st.sampled_from(PLAYERS))
        others = [p for p in PLAYERS if p != player]
        if kind == "draw":
            bodies.append({"draw": True})
        elif kind == "false_win":
            bodies.append({"false_win": player})
        else:
            by = data.draw(st.sampled_from(("discard", "self_draw")))
            if kind == "quick":
                low = 1 if ruleset_id == "shanghai" else 0
                winner = {"player": player, ("points" if ruleset_id == "shanghai" else "tai"): data.draw(
                    st.integers(low, 30))}
            else:
                hand, win = data.draw(winning_hands(14 if ruleset_id == "shanghai" else 17))
                winner = {"player": player, "hand": hand, "win": {**win, "by": by, "after_kong": False}}
            body = {"winners": [winner], "by": by}
            if by == "discard":
                body["discarder"] = data.draw(st.sampled_from(others))
            bodies.append(body)
    return bodies


def record_all(ruleset_id, house_rules, bodies):
    """Each body's payments (or the refusal's message), and the totals."""
    recorder = Recorder.start(ruleset_id, PLAYERS, STAKES[ruleset_id], {}, house_rules)
    outcomes = []
    for body in bodies:
        try:
            outcomes.append(recorder.record("hand", body)["payments"])
        except LedgerError as refused:
            outcomes.append(refused.message)
    return outcomes, recorder.totals


@PROPERTY
@given(st.sampled_from(("taiwan", "taiwan_zz", "shanghai")), st.data())
def test_an_evening_under_a_profile_that_overrides_nothing_pays_like_the_base(ruleset_id, data):
    bodies = evening_bodies(ruleset_id, data)
    assert record_all(ruleset_id, same_values(ruleset_id), bodies) == record_all(ruleset_id, None, bodies)


@PROPERTY
@given(st.sampled_from(("taiwan", "taiwan_zz", "shanghai")), st.data(), seats())
def test_switching_off_a_pattern_not_in_a_hands_breakdown_never_changes_that_hand(ruleset_id, data, winds):
    """RULES.md §8: ``off`` removes a pattern. A pattern the hand does not list either did not match or was
    replaced by one it lists; without it, the listed ones, the total and the points stay.

    (Switching off a pattern that is listed may raise a total: what it replaced counts again.)
    """
    hand, win = data.draw(winning_hands(17 if ruleset_id != "shanghai" else 14))
    try:
        base = Scorer(get_ruleset(ruleset_id)).score(hand, win, **winds)
    except LedgerError:
        assume(False)
    listed = {p.id for p in base.patterns}
    unlisted = [p for p in profile.changeable(ruleset_id) if p not in listed]
    assume(unlisted)
    pattern = data.draw(st.sampled_from(unlisted))
    fewer = scorer(ruleset_id, {"off": [pattern]}).score(hand, win, **winds)
    assert fewer.to_dict() == base.to_dict()


@PROPERTY
@given(st.sampled_from(("taiwan", "taiwan_zz")), st.data(), seats())
def test_switching_the_concealed_self_draw_bonus_off_trades_its_3_for_concealed_1_and_self_draw_1(
        ruleset_id, data, winds):
    """RULES.md §8: with 門清一摸三 / 門清自摸 off, a hand that listed it lists 門清 and 自摸 instead, one 台
    less; any other hand is scored as before (門清 is R3 however won, 自摸 any own draw)."""
    hand, win = data.draw(winning_hands(17))
    try:
        base = Scorer(get_ruleset(ruleset_id)).score(hand, win, **winds)
    except LedgerError:
        assume(False)
    off = scorer(ruleset_id, {"off": ["concealed_self_draw"]}).score(hand, win, **winds)
    before, after = ids_and_values(base), ids_and_values(off)
    if "concealed_self_draw" in before:
        assert after == {**{k: v for k, v in before.items() if k != "concealed_self_draw"},
                         "concealed": 1, "self_draw": 1}
        assert off.total == base.total - 1
    else:
        assert off.to_dict() == base.to_dict()


@st.composite
def house_rules(draw, ruleset_id):
    """Random valid house rules for ``ruleset_id``: some values, some off, some on."""
    switchable = tuple(p.id for p in profile.switchable(ruleset_id))  # tuples: strategies hypothesis caches
    on = draw(st.lists(st.sampled_from(switchable), unique=True, max_size=4)) if switchable else []
    known = tuple(profile.changeable(ruleset_id)) + tuple(on)
    rules = {"values": draw(st.dictionaries(st.sampled_from(known), st.integers(0, 40), max_size=8)),
             "off": draw(st.lists(st.sampled_from(known), unique=True, max_size=4).map(
                 lambda ids: [i for i in ids if i not in on])),
             "on": on}
    if ruleset_id == "shanghai":
        rules["lei_cap"] = draw(st.integers(1, 100))
    return rules


@PROPERTY
@given(st.sampled_from(("taiwan", "taiwan_zz", "shanghai")), st.data(), seats())
def test_a_total_is_the_sum_of_its_listed_patterns_under_any_profile(ruleset_id, data, winds):
    rules = data.draw(house_rules(ruleset_id))
    hand, win = data.draw(winning_hands(17 if ruleset_id != "shanghai" else 14))
    try:
        result = scorer(ruleset_id, rules).score(hand, win, **winds)
    except LedgerError:
        assume(False)
    assert result.total == sum(p.value for p in result.patterns) == result.to_dict()["total"]
    known = profile.known_patterns(ruleset_id)
    for pattern in result.patterns:
        assert pattern.id not in rules["off"]
        value = rules["values"].get(pattern.id, known[pattern.id].value if pattern.id in known else 0)
        assert pattern.value % value == 0 if value else pattern.value == 0  # its value × its count
