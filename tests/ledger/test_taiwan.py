"""The ``taiwan`` rule set (RULES.md §3–§4), every breakdown worked out by hand.

Unless a case says otherwise the winner sits 南 (not the dealer) in 東風東局
(round 東, 局 東) and wins on a discard. Each case lists the FULL breakdown
``{pattern id: 台}`` and its total; ``near`` names the patterns the case is a
near-miss for (it must not score them).

Recurring hands (17 tiles = concealed + 3 per meld + the winning tile):
- OPEN: chow 234m melded; 567m 345p 222s 99s 68s + 7s (closed wait) — worth 0 台.
- CLOSED: the same with 234m concealed — 門清 only.
- WIND(x): chow 234m melded; 567m 345p ``x`` 99s 68s + 7s, ``x`` an honour pung.
"""
import json
from pathlib import Path

import pytest

from ledger.errors import InvalidHand, InvalidRequest
from ledger.rules import score
from tests.ledger.helpers import breakdown, chow, kong, pung, score_hand

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "worked_hands_taiwan.json"

#: RULES.md §4, in table order.
TAIWAN_IDS = (
    "concealed", "self_draw", "concealed_self_draw", "seat_flower", "flower_set", "seat_wind",
    "round_wind", "hand_wind", "declared_ready", "all_simples", "dragon_pung", "after_kong",
    "last_tile_discard", "last_tile_draw", "mixed_triple_chow", "pure_double_chow", "pure_straight",
    "outside_hand", "three_kongs", "three_concealed_pungs", "triple_pung", "twice_pure_double_chow",
    "all_chows", "all_melded", "all_pungs", "small_three_dragons", "all_terminals_and_honors",
    "pure_outside_hand", "half_flush", "four_concealed_pungs", "four_kongs", "small_four_winds",
    "big_three_dragons", "full_flush", "five_concealed_pungs", "all_terminals", "big_four_winds",
    "all_honors", "heavenly_win", "earthly_win",
)

OPEN = dict(concealed="567m345p222s99s68s", winning_tile="7s", melds=[chow("234m")])
CLOSED = dict(concealed="234m567m345p222s99s68s", winning_tile="7s")
KONG_OPEN = dict(concealed="567m345p99s68s", winning_tile="7s", melds=[chow("234m"), kong("2222s")])
KONG_CLOSED = dict(concealed="234m567m345p99s68s", winning_tile="7s",
                   melds=[kong("2222s", concealed=True)])
DEALER = dict(seat="E", round_wind="E", hand_wind="E")


def wind(honour_pung):
    return dict(concealed=f"567m345p{honour_pung}99s68s", winning_tile="7s", melds=[chow("234m")])


def hand(concealed, winning_tile, *melds):
    return dict(concealed=concealed, winning_tile=winning_tile, melds=list(melds))


def case(case_id, tiles, expected, total, near=(), **context):
    return pytest.param(tiles, context, expected, total, tuple(near), id=case_id)


CASES = [
    # ---- 門清, 自摸, 門清一摸三 (R3, R5) --------------------------------------------
    case("concealed", CLOSED, {"concealed": 1}, 1),
    case("concealed_robbed_kong_R5", CLOSED, {"concealed": 1}, 1, near=["concealed_self_draw"],
         by="robbing_kong"),
    case("concealed_kong_keeps_concealed_R3", KONG_CLOSED, {"concealed": 1}, 1),
    case("zero_tai_open_hand_R10", OPEN, {}, 0, near=["concealed"]),
    case("exposed_kong_is_not_concealed", hand("234m567m345p99s68s", "7s", kong("2222s")), {}, 0,
         near=["concealed"]),
    case("self_draw", OPEN, {"self_draw": 1}, 1, near=["concealed_self_draw"], by="self_draw"),
    case("concealed_self_draw", CLOSED, {"concealed_self_draw": 3}, 3, near=["self_draw", "concealed"],
         by="self_draw"),
    case("concealed_self_draw_with_concealed_kong", KONG_CLOSED, {"concealed_self_draw": 3}, 3,
         by="self_draw"),
    # ---- flowers (R7, R10) --------------------------------------------------------------
    case("seat_flower_south", {**OPEN, "flowers": "2f6f3f"}, {"seat_flower": 2}, 2),
    case("seat_flower_east_dealer", {**OPEN, "flowers": "春梅"}, {"seat_flower": 2}, 2, **DEALER),
    case("other_seats_flowers", {**OPEN, "flowers": "1f3f5f"}, {}, 0, near=["seat_flower"]),
    case("flower_set_with_seat_flower_inside_R10", {**OPEN, "flowers": "1f2f3f4f"},
         {"flower_set": 1, "seat_flower": 1}, 2),
    case("both_flower_sets", {**OPEN, "flowers": "12345678f"}, {"flower_set": 2, "seat_flower": 2}, 4),
    case("four_flowers_not_a_set", {**OPEN, "flowers": "2f6f7f8f"}, {"seat_flower": 2}, 2,
         near=["flower_set"]),
    # ---- winds (R6, R10) -----------------------------------------------------------------
    case("seat_wind", wind("333z"), {"seat_wind": 1}, 1, seat="W"),
    case("west_pung_for_north_seat", wind("333z"), {}, 0, near=["seat_wind"], seat="N"),
    case("round_wind", wind("222z"), {"round_wind": 1}, 1, seat="W", round_wind="S"),
    case("south_pung_in_east_round", wind("222z"), {}, 0, near=["round_wind"], seat="W"),
    case("hand_wind", wind("444z"), {"hand_wind": 1}, 1, seat="W", hand_wind="N"),
    case("north_pung_in_south_hand", wind("444z"), {}, 0, near=["hand_wind"], seat="W", hand_wind="S"),
    case("dealer_east_pung_east_round_east_hand_R10", wind("111z"),
         {"seat_wind": 1, "round_wind": 1, "hand_wind": 1}, 3, dealer=True, **DEALER),
    case("east_pair_scores_no_wind", hand("567m345p222s11z68s", "7s", chow("234m")), {}, 0,
         near=["seat_wind", "round_wind", "hand_wind"], **DEALER),
    # ---- flags ---------------------------------------------------------------------------
    case("declared_ready", OPEN, {"declared_ready": 1}, 1, declared_ready=True),
    case("after_kong_adds_to_self_draw_R10", KONG_OPEN, {"self_draw": 1, "after_kong": 1}, 2,
         by="self_draw", after_kong=True),
    case("after_kong_adds_to_concealed_self_draw_R10", KONG_CLOSED,
         {"concealed_self_draw": 3, "after_kong": 1}, 4, by="self_draw", after_kong=True),
    case("self_draw_off_a_kong_but_not_its_replacement", KONG_OPEN, {"self_draw": 1}, 1,
         near=["after_kong"], by="self_draw"),
    case("last_tile_discard", OPEN, {"last_tile_discard": 1}, 1, near=["last_tile_draw"],
         last_tile=True),
    case("last_tile_draw_adds_to_self_draw_R10", OPEN, {"self_draw": 1, "last_tile_draw": 1}, 2,
         near=["last_tile_discard"], by="self_draw", last_tile=True),
    case("last_tile_draw_adds_to_concealed_self_draw_R10", CLOSED,
         {"concealed_self_draw": 3, "last_tile_draw": 1}, 4, by="self_draw", last_tile=True),
    # ---- simples, dragons ------------------------------------------------------------------
    case("all_simples_with_a_meld", hand("567m345p222s55s68s", "7s", chow("234m")),
         {"all_simples": 1}, 1),
    case("terminal_pair_breaks_all_simples", OPEN, {}, 0, near=["all_simples"]),
    case("terminal_in_a_meld_breaks_all_simples", hand("567m345p222s55s68s", "7s", chow("123m")),
         {}, 0, near=["all_simples"]),
    case("dragon_pung", wind("777z"), {"dragon_pung": 1}, 1),
    case("two_dragon_pungs", hand("567m666z777z99s68s", "7s", chow("234m")), {"dragon_pung": 2}, 2,
         near=["small_three_dragons"]),
    case("dragon_pair_is_no_dragon_pung", hand("567m345p222s77z68s", "7s", chow("234m")), {}, 0,
         near=["dragon_pung"]),
    case("small_three_dragons", hand("666z777z55z567p68s", "7s", chow("234m")),
         {"small_three_dragons": 4}, 4, near=["dragon_pung", "big_three_dragons"]),
    case("big_three_dragons", hand("555z666z777z99s68s", "7s", chow("234m")),
         {"big_three_dragons": 6, "three_concealed_pungs": 2}, 8, near=["dragon_pung"]),
    # ---- chows --------------------------------------------------------------------------
    case("mixed_triple_chow", hand("234p234s567p99s68s", "7s", chow("234m")),
         {"mixed_triple_chow": 1}, 1, near=["all_chows"]),
    case("two_suits_only_no_mixed_triple_chow", hand("234p345s567p99s68s", "7s", chow("234m")), {}, 0,
         near=["mixed_triple_chow"]),
    case("pure_double_chow", hand("234m234m567p222s99s68s", "7s"),
         {"concealed": 1, "pure_double_chow": 1}, 2, near=["twice_pure_double_chow"]),
    case("melded_double_chow_is_not_pure_double_chow", hand("234m567p222s99s68s", "7s", chow("234m")),
         {}, 0, near=["pure_double_chow"]),
    case("three_identical_chows_one_pure_double_chow_R10", hand("22333444m567p789s55p", "2m"),
         {"concealed": 1, "pure_double_chow": 1, "all_chows": 2}, 4,
         near=["twice_pure_double_chow", "three_concealed_pungs"]),
    case("twice_pure_double_chow", hand("223344m556677p99s68s", "7s"),
         {"concealed": 1, "twice_pure_double_chow": 2}, 3, near=["pure_double_chow"]),
    case("one_pair_of_identical_chows_only", hand("223344m567678p99s68s", "7s"),
         {"concealed": 1, "pure_double_chow": 1}, 2, near=["twice_pure_double_chow"]),
    case("twice_pure_double_chow_needs_concealed", hand("223344m567p99s68s", "7s", chow("567p")), {}, 0,
         near=["twice_pure_double_chow", "pure_double_chow"]),
    case("pure_straight", hand("456m789m222p99s68s", "7s", chow("123m")), {"pure_straight": 1}, 1),
    case("broken_straight", hand("456m678m222p99s68s", "7s", chow("123m")), {}, 0,
         near=["pure_straight"]),
    case("straight_across_suits", hand("456m789p222s99s68s", "7s", chow("123m")), {}, 0,
         near=["pure_straight"]),
    # ---- 平胡 (all_chows) ------------------------------------------------------------------
    case("all_chows", hand("123m456m789p234s56s55p", "7s"), {"concealed": 1, "all_chows": 2}, 3),
    case("all_chows_self_drawn_open_R10", hand("456m789p234s56s55p", "7s", chow("123m")),
         {"self_draw": 1, "all_chows": 2}, 3, by="self_draw"),
    case("all_chows_two_sided_in_some_reading_R1", hand("123m456m789p55p45667s", "5s"),
         {"concealed": 1, "all_chows": 2}, 3),
    case("flower_voids_all_chows_R10", {**hand("456m789p234s56s55p", "7s", chow("123m")), "flowers": "1f"},
         {"self_draw": 1}, 1, near=["all_chows"], by="self_draw"),
    case("seat_flower_voids_all_chows_but_scores", {**hand("123m456m789p234s56s55p", "7s"),
                                                    "flowers": "2f"},
         {"concealed": 1, "seat_flower": 1}, 2, near=["all_chows"]),
    case("all_chows_closed_wait", hand("123m456m789p234s57s55p", "6s"), {"concealed": 1}, 1,
         near=["all_chows"]),
    case("all_chows_edge_wait", hand("123m456m789p234s89s55p", "7s"), {"concealed": 1}, 1,
         near=["all_chows"]),
    case("all_chows_single_wait", hand("123m456m789p234s567s5p", "5p"), {"concealed": 1}, 1,
         near=["all_chows"]),
    case("all_chows_honour_pair", hand("123m456m789p234s56s22z", "7s"), {"concealed": 1}, 1,
         near=["all_chows"]),
    # ---- terminals and honours in every set ----------------------------------------------------
    case("outside_hand", hand("789p123s333z99m78s", "9s", chow("123m")), {"outside_hand": 1}, 1,
         near=["pure_outside_hand"]),
    case("outside_hand_broken_by_678p", hand("678p123s333z99m78s", "9s", chow("123m")), {}, 0,
         near=["outside_hand"]),
    case("pure_outside_hand", hand("789p123s999m11p78s", "9s", chow("123m")), {"pure_outside_hand": 4}, 4,
         near=["outside_hand"]),
    case("pure_outside_hand_broken_by_678p", hand("678p123s999m11p78s", "9s", chow("123m")), {}, 0,
         near=["pure_outside_hand"]),
    # ---- kongs ---------------------------------------------------------------------------
    case("three_kongs", hand("345m99s67p", "8p", kong("2222m"), kong("5555p"), kong("8888s")),
         {"three_kongs": 2}, 2, near=["four_kongs", "concealed"]),
    case("three_concealed_kongs",
         hand("345m99s67p", "8p", kong("2222m", True), kong("5555p", True), kong("8888s", True)),
         {"concealed": 1, "three_kongs": 2, "three_concealed_pungs": 2}, 5),
    case("two_kongs_and_a_pung", hand("345m99s67p", "8p", kong("2222m"), kong("5555p"), pung("888s")),
         {}, 0, near=["three_kongs"]),
    case("four_kongs",
         hand("345m9s", "9s", kong("2222m"), kong("5555p"), kong("8888s"), kong("3333z")),
         {"four_kongs": 6}, 6, near=["three_kongs"]),
    # ---- concealed pungs (R2) ------------------------------------------------------------------
    case("three_concealed_pungs", hand("777m222p444s99s68p", "7p", chow("234m")),
         {"three_concealed_pungs": 2}, 2),
    case("third_pung_completed_by_discard_R2", hand("777m222p678p44s99s", "4s", chow("234m")), {}, 0,
         near=["three_concealed_pungs"]),
    case("third_pung_completed_by_self_draw_R2", hand("777m222p678p44s99s", "4s", chow("234m")),
         {"self_draw": 1, "three_concealed_pungs": 2}, 3, by="self_draw"),
    case("winning_tile_in_chow_keeps_pung_concealed_R1_R2", hand("555m777p11123s99p", "1s", chow("789s")),
         {"three_concealed_pungs": 2}, 2),
    case("pung_reading_beats_chow_reading_R1", hand("222333444m567p99s68s", "7s"),
         {"concealed": 1, "three_concealed_pungs": 2}, 3, near=["pure_double_chow"]),
    case("four_concealed_pungs", hand("777m222p444s666s9s", "9s", chow("234m")),
         {"four_concealed_pungs": 6}, 6, near=["three_concealed_pungs"]),
    case("fourth_pung_completed_by_discard_R2", hand("777m222p444s66s99s", "6s", chow("234m")),
         {"three_concealed_pungs": 2}, 2, near=["four_concealed_pungs"]),
    case("fourth_pung_completed_by_self_draw", hand("777m222p444s66s99s", "6s", chow("234m")),
         {"self_draw": 1, "four_concealed_pungs": 6}, 7, near=["three_concealed_pungs"], by="self_draw"),
    case("five_concealed_pungs", hand("222m666m333p444s777s8p", "8p"),
         {"concealed": 1, "five_concealed_pungs": 8, "all_pungs": 4, "all_simples": 1}, 14,
         near=["four_concealed_pungs", "three_concealed_pungs"]),
    case("fifth_pung_completed_by_discard", hand("222m666m333p444s77s88p", "7s"),
         {"concealed": 1, "four_concealed_pungs": 6, "all_pungs": 4, "all_simples": 1}, 12,
         near=["five_concealed_pungs"]),
    # ---- pungs ---------------------------------------------------------------------------
    case("triple_pung", hand("555m555p99s78p", "6p", chow("234m"), pung("555s")), {"triple_pung": 2}, 2),
    case("triple_pung_needs_the_same_number", hand("555m555p99s78p", "6p", chow("234m"), pung("666s")),
         {}, 0, near=["triple_pung"]),
    case("all_pungs", hand("333m777p66s99s", "6s", pung("222m"), pung("555p")), {"all_pungs": 4}, 4),
    case("one_chow_breaks_all_pungs", hand("333m777p66s99s", "6s", pung("222m"), chow("456p")), {}, 0,
         near=["all_pungs"]),
    case("all_terminals_and_honors", hand("999m333z1p", "1p", pung("111m"), pung("999p"), pung("111s")),
         {"all_pungs": 4, "all_terminals_and_honors": 4, "outside_hand": 1}, 9, near=["all_terminals"]),
    case("an_888m_pung_breaks_all_terminals_and_honors",
         hand("888m333z1p", "1p", pung("111m"), pung("999p"), pung("111s")), {"all_pungs": 4}, 4,
         near=["all_terminals_and_honors", "outside_hand"]),
    case("all_terminals_keeps_pure_outside_hand_R10",
         hand("999p999s1s", "1s", pung("111m"), pung("999m"), pung("111p")),
         {"all_pungs": 4, "all_terminals": 8, "pure_outside_hand": 4, "triple_pung": 2}, 18,
         near=["all_terminals_and_honors"]),
    # ---- suits ---------------------------------------------------------------------------
    case("half_flush", hand("567m333z888m11m24m", "3m", chow("234m")), {"half_flush": 4}, 4,
         near=["full_flush"]),
    case("two_suits_no_half_flush", hand("567m333p888m11m24m", "3m", chow("234m")), {}, 0,
         near=["half_flush"]),
    case("full_flush", hand("345m666m888m99m12m", "3m", chow("234m")), {"full_flush": 6}, 6,
         near=["half_flush"]),
    case("pair_of_another_suit_breaks_full_flush", hand("345m666m888m99p12m", "3m", chow("234m")), {}, 0,
         near=["full_flush"]),
    # ---- winds ---------------------------------------------------------------------------
    case("small_four_winds", hand("111z222z333z44z68s", "7s", chow("234m")),
         {"small_four_winds": 6, "three_concealed_pungs": 2}, 8,
         near=["seat_wind", "round_wind", "hand_wind", "big_four_winds"]),
    case("small_four_winds_for_the_dealer", hand("111z222z333z44z68s", "7s", chow("234m")),
         {"small_four_winds": 6, "three_concealed_pungs": 2}, 8, **DEALER),
    case("three_wind_pungs_without_wind_pair", hand("111z222z333z99s68s", "7s", chow("234m")),
         {"seat_wind": 1, "round_wind": 1, "hand_wind": 1, "three_concealed_pungs": 2}, 5,
         near=["small_four_winds"]),
    case("big_four_winds", hand("222z333z444z99s68s", "7s", pung("111z")),
         {"big_four_winds": 8, "three_concealed_pungs": 2, "half_flush": 4}, 14,
         near=["small_four_winds", "seat_wind", "round_wind", "hand_wind"]),
    # ---- honours only (R10) -------------------------------------------------------------------
    case("all_honors_scores_outside_hand_not_half_flush_R10",
         hand("555z666z777z4z", "4z", pung("222z"), pung("333z")),
         {"all_honors": 8, "big_three_dragons": 6, "all_pungs": 4, "three_concealed_pungs": 2,
          "outside_hand": 1}, 21, near=["half_flush", "all_terminals_and_honors"], seat="N"),
    case("one_suited_pair_breaks_all_honors",
         hand("555z666z777z9s", "9s", pung("222z"), pung("333z")),
         {"big_three_dragons": 6, "all_pungs": 4, "three_concealed_pungs": 2, "outside_hand": 1,
          "half_flush": 4, "all_terminals_and_honors": 4}, 21, near=["all_honors"], seat="N"),
    # ---- 天胡, 地胡 (R8, R9) --------------------------------------------------------------------
    case("heavenly_win_replaces_self_draw_and_ready", CLOSED, {"heavenly_win": 8}, 8,
         near=["concealed_self_draw", "declared_ready"], by="self_draw", event="heavenly_win",
         declared_ready=True, **DEALER),
    case("dealer_first_draw_without_flag", CLOSED, {"concealed_self_draw": 3}, 3, near=["heavenly_win"],
         by="self_draw", **DEALER),
    case("earthly_win", CLOSED, {"earthly_win": 8}, 8, near=["concealed_self_draw", "heavenly_win"],
         by="self_draw", event="earthly_win"),
    case("earthly_win_replaces_ready", CLOSED, {"earthly_win": 8}, 8, near=["declared_ready"],
         by="self_draw", event="earthly_win", declared_ready=True),
    # R9 does not refuse 地胡 on a discard, and R8 lets 地胡 replace 門清, which only a discard scores.
    case("earthly_win_on_a_discard_replaces_concealed", CLOSED, {"earthly_win": 8}, 8, near=["concealed"],
         event="earthly_win"),
    case("non_dealer_self_draw_without_flag", CLOSED, {"concealed_self_draw": 3}, 3,
         near=["earthly_win"], by="self_draw"),
    # ---- 全求 -----------------------------------------------------------------------------
    case("all_melded", hand("9p", "9p", chow("123m"), chow("456m"), pung("555p"), chow("789s"),
                            chow("234s")), {"all_melded": 2}, 2),
    case("all_melded_self_drawn", hand("9p", "9p", chow("123m"), chow("456m"), pung("555p"),
                                       chow("789s"), chow("234s")),
         {"self_draw": 1}, 1, near=["all_melded"], by="self_draw"),
    case("all_melded_with_a_concealed_kong", hand("9p", "9p", chow("123m"), chow("456m"),
                                                  kong("5555p", True), chow("789s"), chow("234s")),
         {}, 0, near=["all_melded"]),
]


@pytest.mark.parametrize("tiles, context, expected, total, near", CASES)
def test_breakdown(tiles, context, expected, total, near):
    result = score_hand("taiwan", **tiles, **context)
    assert breakdown(result) == expected
    assert result.total == total
    assert not set(near) & set(expected)


def test_every_pattern_has_a_scoring_case_and_a_near_miss():
    scored = {pid for param in CASES for pid in param.values[2]}
    missed = {pid for param in CASES for pid in param.values[4]}
    assert scored == set(TAIWAN_IDS)
    assert missed == set(TAIWAN_IDS)


def test_breakdown_names_and_to_dict():
    result = score_hand("taiwan", **wind("111z"), dealer=True, **DEALER)
    assert sorted((p.id, p.name, p.value) for p in result.patterns) == [
        ("hand_wind", "風牌", 1), ("round_wind", "風圈", 1), ("seat_wind", "門風", 1)]
    out = result.to_dict()
    assert (out["ruleset"], out["unit"], out["total"]) == ("taiwan", "tai", 3)
    assert out["waits"] == ["7s"]
    assert out["wait"] == "closed"
    assert sorted(out["sets"]) == [["1z", "1z", "1z"], ["2m", "3m", "4m"], ["3p", "4p", "5p"],
                                   ["5m", "6m", "7m"], ["6s", "7s", "8s"]]
    assert out["pair"] == ["9s", "9s"]


def test_each_breakdown_is_new_so_a_caller_may_change_it():
    result = score_hand("taiwan", **wind("111z"), dealer=True, **DEALER)
    first = result.to_dict()
    first["patterns"][0]["value"] = 99
    first["patterns"].clear()
    for group in first["sets"]:
        group.clear()
    first["sets"].clear()
    first["pair"].clear()
    first["waits"].clear()
    again = result.to_dict()
    # 門風 + 風圈 + 風牌 (東 pung, dealer in 東風東局): 3 台, waiting on the closed 7s
    assert sorted((p["id"], p["value"]) for p in again["patterns"]) == [
        ("hand_wind", 1), ("round_wind", 1), ("seat_wind", 1)]
    assert again["total"] == 3
    assert ["1z", "1z", "1z"] in again["sets"] and len(again["sets"]) == 5
    assert (again["pair"], again["waits"]) == (["9s", "9s"], ["7s"])


def test_zero_tai_win_is_legal_with_an_empty_breakdown_R10():
    out = score_hand("taiwan", **OPEN).to_dict()
    assert (out["total"], out["patterns"]) == (0, [])


def test_notation_does_not_change_the_score():
    compact = score_hand("taiwan", "567m666z777z99s68s", "7s", [chow("234m")])
    chinese = score_hand("taiwan", "五萬六萬七萬 發發發 中中中 九條九條 6條8條", "七條",
                         [{"kind": "chow", "tiles": ["二萬", "三萬", "四萬"]}])
    assert breakdown(compact) == breakdown(chinese) == {"dragon_pung": 2}


# ---- R9 refusals -------------------------------------------------------------------------
@pytest.mark.parametrize("context, field, words", [
    (dict(by="self_draw", event="heavenly_win"), "win.event", "dealer only"),
    (dict(by="discard", event="heavenly_win", **DEALER), "win.event", "not by discard"),
    (dict(by="robbing_kong", event="heavenly_win", **DEALER), "win.event", "not by robbing_kong"),
    (dict(by="self_draw", event="earthly_win", **DEALER), "win.event", "non-dealer only"),
    (dict(by="self_draw", event="earthly_win", dealer=True), "win.event", "non-dealer only"),
    (dict(by="discard", after_kong=True), "win.after_kong", "self-draw (R5), not discard"),
    (dict(by="robbing_kong", after_kong=True), "win.after_kong", "not robbing_kong"),
])
def test_impossible_flags_are_refused(context, field, words):
    with pytest.raises(InvalidHand) as caught:
        score_hand("taiwan", **KONG_CLOSED, **context)
    assert caught.value.field == field
    assert words in caught.value.message


@pytest.mark.parametrize("context, field", [
    (dict(event="eight_flowers"), "win.event"),
    (dict(by="tsumo"), "win.by"),
    (dict(seat="X"), "seat_wind"),
    (dict(round_wind="east"), "round_wind"),
    (dict(hand_wind=None), "hand_wind"),
    (dict(last_tile="yes"), "win.last_tile"),
    (dict(options={"see_flower_see_word": True}), "options.see_flower_see_word"),
    (dict(dealer="yes"), "dealer"),
])
def test_bad_context_is_refused(context, field):
    with pytest.raises(InvalidRequest) as caught:
        score_hand("taiwan", **OPEN, **context)
    assert caught.value.field == field
    assert caught.value.message.startswith(field)


@pytest.mark.parametrize("concealed, winning_tile", [
    ("123m456m789m123p789s5p", "6p"),
    ("1133557799m113355p", "7p"),  # eight pairs and a single: no seven/eight-pairs shape (§2)
])
def test_a_hand_with_no_legal_shape_is_refused(concealed, winning_tile):
    with pytest.raises(InvalidHand) as caught:
        score_hand("taiwan", concealed, winning_tile)
    assert caught.value.field == "hand"
    assert "no legal shape" in caught.value.message


# ---- worked hands (fixture) -----------------------------------------------------------------
WORKED = json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("worked", WORKED["hands"], ids=[h["id"] for h in WORKED["hands"]])
def test_worked_hand(worked):
    request = worked["request"]
    assert request["ruleset"] == "taiwan"
    result = score(request["ruleset"], request["hand"], request["win"], seat_wind=request["seat_wind"],
                   round_wind=request["round_wind"], hand_wind=request["hand_wind"],
                   dealer=request["dealer"])
    expected = worked["expected"]
    assert breakdown(result) == expected["patterns"]
    assert result.total == expected["total"] == sum(expected["patterns"].values())
    assert worked["arithmetic"].endswith(f"= {expected['total']}")


def test_worked_hands_cover_the_seed_examples():
    ids = {h["id"] for h in WORKED["hands"]}
    assert {"seed004_four_concealed_pungs", "seed004_five_concealed_pungs", "seed004_all_honors",
            "seed004_all_terminals_and_honors", "seed004_all_terminals"} <= ids
    assert len(ids) == len(WORKED["hands"]) >= 15

