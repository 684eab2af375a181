"""``taiwan``: Taiwanese 16-tile mahjong, seed 004, as RULES.md §4 rules it: the table below is the rule
set, (id, 台, predicate, replaces); values per item (花牌, 花槓, 三元台) multiply by the count.
"""
from __future__ import annotations

from ledger.rules import predicates as p
from ledger.rules.names import pattern_maker, ruleset_name
from ledger.scoring import Option, RuleSet

pattern = pattern_maker("taiwan")

CONCEALED_PUNG_PATTERNS = ("three_concealed_pungs", "four_concealed_pungs", "five_concealed_pungs")
WIND_PATTERNS = ("seat_wind", "round_wind", "hand_wind")
SELF_DRAW_PATTERNS = ("concealed", "self_draw", "concealed_self_draw")
#: 天胡 / 地胡 replace these (R8).
HEAVEN_EARTH_REPLACE = SELF_DRAW_PATTERNS + ("single_wait", "declared_ready", "heavenly_ready",
                                             "earthly_ready")

PAYMENT_OPTIONS = (
    Option("dealer_bonus", True, bool, "莊家台: the dealer extra 1 + 2n on every payment with the dealer"),
    Option("multiple_winners", False, bool, "一炮多響: one discard may pay several winners"),
    Option("max_tai", None, int, "cap on a hand's 台 before the dealer extra (null: no cap)",
           nullable=True, minimum=1),
)

PATTERNS = (
    pattern("concealed", 1, p.concealed),
    pattern("self_draw", 1, p.self_drawn),
    pattern("concealed_self_draw", 3, p.concealed_self_draw, ("concealed", "self_draw")),
    pattern("seat_flower", 1, p.seat_flowers),
    pattern("flower_set", 1, p.flower_sets),
    pattern("seat_wind", 1, p.seat_wind_pung),
    pattern("round_wind", 1, p.round_wind_pung),
    pattern("hand_wind", 1, p.hand_wind_pung),
    pattern("declared_ready", 1, p.declared_ready),
    pattern("all_simples", 1, p.all_simples),
    pattern("dragon_pung", 1, p.dragon_pungs),
    pattern("after_kong", 1, p.after_kong),
    pattern("last_tile_discard", 1, p.last_tile_discard),
    pattern("last_tile_draw", 1, p.last_tile_draw),
    pattern("mixed_triple_chow", 1, p.mixed_triple_chow),
    pattern("pure_double_chow", 1, p.pure_double_chow),
    pattern("pure_straight", 1, p.pure_straight),
    pattern("outside_hand", 1, p.outside_hand),
    pattern("three_kongs", 2, p.at_least(p.kongs, 3)),
    pattern("three_concealed_pungs", 2, p.at_least(p.concealed_pungs, 3)),
    pattern("triple_pung", 2, p.triple_pung),
    pattern("twice_pure_double_chow", 2, p.twice_pure_double_chow, ("pure_double_chow",)),
    pattern("all_chows", 2, p.all_chows_two_sided),
    pattern("all_melded", 2, p.all_melded),
    pattern("all_pungs", 4, p.all_pungs),
    pattern("small_three_dragons", 4, p.small_three_dragons, ("dragon_pung",)),
    pattern("all_terminals_and_honors", 4, p.all_terminals_and_honors),
    pattern("pure_outside_hand", 4, p.pure_outside_hand),
    pattern("half_flush", 4, p.half_flush),
    pattern("four_concealed_pungs", 6, p.at_least(p.concealed_pungs, 4),
            ("three_concealed_pungs",)),
    pattern("four_kongs", 6, p.at_least(p.kongs, 4), ("three_kongs",)),
    pattern("small_four_winds", 6, p.small_four_winds, WIND_PATTERNS),
    pattern("big_three_dragons", 6, p.big_three_dragons, ("dragon_pung",)),
    pattern("full_flush", 6, p.full_flush),
    pattern("five_concealed_pungs", 8, p.at_least(p.concealed_pungs, 5),
            CONCEALED_PUNG_PATTERNS[:2]),
    pattern("all_terminals", 8, p.all_terminals, ("all_terminals_and_honors",)),
    pattern("big_four_winds", 8, p.big_four_winds, WIND_PATTERNS + ("small_four_winds",)),
    pattern("all_honors", 8, p.all_honors),
    pattern("heavenly_win", 8, p.event("heavenly_win"), HEAVEN_EARTH_REPLACE),
    pattern("earthly_win", 8, p.event("earthly_win"), HEAVEN_EARTH_REPLACE),
)

#: 半求 belongs to neither seed: a table switches it on by its house rules (``on``), in
#: either Taiwanese rule set. It adds to 自摸 as 全求 adds to 獨聽 (RULES.md R10).
HALF_MELDED = pattern("half_melded", 1, p.half_melded)

RULESET = RuleSet(
    id="taiwan", name=ruleset_name("taiwan"), unit="tai", hand_size=17,
    patterns=PATTERNS, options=PAYMENT_OPTIONS, events=("heavenly_win", "earthly_win"),
)
