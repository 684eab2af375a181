"""``taiwan``: Taiwanese 16-tile mahjong, seed 004, as RULES.md §4 rules it.

The table below is the rule set; each row is (id, name, 台, predicate,
replaces). Values per item (花牌, 花槓, 三元台) are multiplied by the count.
"""
from __future__ import annotations

from ledger.rules import predicates as p
from ledger.scoring import Option, Pattern, RuleSet

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
    Pattern("concealed", "門清", 1, p.concealed_on_discard),
    Pattern("self_draw", "自摸", 1, p.open_self_draw),
    Pattern("concealed_self_draw", "門清一摸三", 3, p.concealed_self_draw, ("concealed", "self_draw")),
    Pattern("seat_flower", "花牌", 1, p.seat_flowers),
    Pattern("flower_set", "花槓", 1, p.flower_sets),
    Pattern("seat_wind", "門風", 1, p.seat_wind_pung),
    Pattern("round_wind", "風圈", 1, p.round_wind_pung),
    Pattern("hand_wind", "風牌", 1, p.hand_wind_pung),
    Pattern("declared_ready", "立直", 1, p.declared_ready),
    Pattern("all_simples", "斷么九", 1, p.all_simples),
    Pattern("dragon_pung", "三元台", 1, p.dragon_pungs),
    Pattern("after_kong", "槓上開花", 1, p.after_kong),
    Pattern("last_tile_discard", "海底撈魚", 1, p.last_tile_discard),
    Pattern("last_tile_draw", "海底撈月", 1, p.last_tile_draw),
    Pattern("mixed_triple_chow", "三色同順", 1, p.mixed_triple_chow),
    Pattern("pure_double_chow", "一盃口", 1, p.pure_double_chow),
    Pattern("pure_straight", "一條龍", 1, p.pure_straight),
    Pattern("outside_hand", "混全帶么", 1, p.outside_hand),
    Pattern("three_kongs", "三槓子", 2, p.at_least(p.kongs, 3)),
    Pattern("three_concealed_pungs", "三暗刻", 2, p.at_least(p.concealed_pungs, 3)),
    Pattern("triple_pung", "三色同刻", 2, p.triple_pung),
    Pattern("twice_pure_double_chow", "二盃口", 2, p.twice_pure_double_chow, ("pure_double_chow",)),
    Pattern("all_chows", "平胡", 2, p.all_chows_two_sided),
    Pattern("all_melded", "全求", 2, p.all_melded),
    Pattern("all_pungs", "碰碰胡", 4, p.all_pungs),
    Pattern("small_three_dragons", "小三元", 4, p.small_three_dragons, ("dragon_pung",)),
    Pattern("all_terminals_and_honors", "混老頭", 4, p.all_terminals_and_honors),
    Pattern("pure_outside_hand", "純全帶么", 4, p.pure_outside_hand),
    Pattern("half_flush", "混一色", 4, p.half_flush),
    Pattern("four_concealed_pungs", "四暗刻", 6, p.at_least(p.concealed_pungs, 4),
            ("three_concealed_pungs",)),
    Pattern("four_kongs", "四槓子", 6, p.at_least(p.kongs, 4), ("three_kongs",)),
    Pattern("small_four_winds", "小四喜", 6, p.small_four_winds, WIND_PATTERNS),
    Pattern("big_three_dragons", "大三元", 6, p.big_three_dragons, ("dragon_pung",)),
    Pattern("full_flush", "清一色", 6, p.full_flush),
    Pattern("five_concealed_pungs", "五暗刻", 8, p.at_least(p.concealed_pungs, 5),
            CONCEALED_PUNG_PATTERNS[:2]),
    Pattern("all_terminals", "清老頭", 8, p.all_terminals, ("all_terminals_and_honors",)),
    Pattern("big_four_winds", "大四喜", 8, p.big_four_winds, WIND_PATTERNS + ("small_four_winds",)),
    Pattern("all_honors", "字一色", 8, p.all_honors),
    Pattern("heavenly_win", "天胡", 8, p.event("heavenly_win"), HEAVEN_EARTH_REPLACE),
    Pattern("earthly_win", "地胡", 8, p.event("earthly_win"), HEAVEN_EARTH_REPLACE),
)

#: 半求 belongs to neither seed: a table switches it on by its house rules (``on``), in
#: either Taiwanese rule set. It adds to 自摸 as 全求 adds to 獨聽 (RULES.md R10).
HALF_MELDED = Pattern("half_melded", "半求", 1, p.half_melded)

RULESET = RuleSet(
    id="taiwan", name="台灣十六張 (莊家台, 連莊)", unit="tai", hand_size=17,
    patterns=PATTERNS, options=PAYMENT_OPTIONS, events=("heavenly_win", "earthly_win"),
)
