"""``taiwan_zz``: the 政治麻將 table of seed 000, as RULES.md §5 rules it.

Option ``see_flower_see_word`` (見花見字) swaps 花牌 for 見花 and 門風/圈風 for
見字, and adds 明槓, 暗槓 and 無字無花. ``no_points`` (屁胡, 0 台) is shown
alone when nothing else scores, so the breakdown is never empty.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.rules import predicates as p
from ledger.rules.taiwan import CONCEALED_PUNG_PATTERNS, HEAVEN_EARTH_REPLACE, PAYMENT_OPTIONS
from ledger.scoring import Context, Option, Pattern, RuleSet, ScoredPattern

WIND_PATTERNS = ("seat_wind", "round_wind", "any_wind_pung")
#: Patterns that exist only with 見花見字, and the ones it switches off.
SEE_FLOWER_SEE_WORD = ("exposed_kong", "concealed_kong", "any_flower", "any_wind_pung",
                       "no_honors_no_flowers")
SEE_FLOWER_SEE_WORD_REPLACES = ("seat_flower", "seat_wind", "round_wind")

NO_POINTS = Pattern("no_points", "屁胡", 0, lambda c: True)

PATTERNS = (
    NO_POINTS,
    Pattern("declared_ready", "聽牌", 1, p.declared_ready),
    Pattern("single_wait", "獨聽", 1, p.single_wait),
    Pattern("self_draw", "自摸", 1, p.open_self_draw),
    Pattern("concealed", "門清", 1, p.concealed_on_discard),
    Pattern("concealed_self_draw", "門清自摸", 3, p.concealed_self_draw, ("concealed", "self_draw")),
    Pattern("seat_wind", "門風", 1, p.seat_wind_pung),
    Pattern("round_wind", "圈風", 1, p.round_wind_pung),
    Pattern("seat_flower", "花牌", 1, p.seat_flowers),
    Pattern("flower_set", "花槓", 2, p.flower_sets),
    Pattern("eight_flowers", "八仙過海", 8, p.event("eight_flowers")),
    Pattern("seven_flowers_rob", "七搶一", 8, p.event("seven_flowers_rob")),
    Pattern("all_chows", "平胡", 2, p.all_chows),
    Pattern("all_pungs", "碰碰胡", 4, p.all_pungs),
    Pattern("three_concealed_pungs", "三暗刻", 2, p.at_least(p.concealed_pungs, 3)),
    Pattern("four_concealed_pungs", "四暗刻", 5, p.at_least(p.concealed_pungs, 4),
            ("three_concealed_pungs",)),
    Pattern("five_concealed_pungs", "五暗刻", 8, p.at_least(p.concealed_pungs, 5),
            CONCEALED_PUNG_PATTERNS[:2]),
    Pattern("after_kong", "槓上開花", 1, p.after_kong),
    Pattern("half_flush", "混一色", 4, p.half_flush),
    Pattern("full_flush", "清一色", 8, p.full_flush),
    Pattern("all_honors", "字一色", 8, p.all_honors),
    Pattern("small_three_dragons", "小三元", 4, p.small_three_dragons, ("dragon_pung",)),
    Pattern("big_three_dragons", "大三元", 8, p.big_three_dragons, ("dragon_pung",)),
    Pattern("small_four_winds", "小四喜", 8, p.small_four_winds, WIND_PATTERNS),
    Pattern("big_four_winds", "大四喜", 16, p.big_four_winds, WIND_PATTERNS + ("small_four_winds",)),
    Pattern("dragon_pung", "三元牌", 1, p.dragon_pungs),
    Pattern("robbing_kong", "搶槓", 1, p.robbed_kong),
    Pattern("last_tile_draw", "海底撈月", 1, p.last_tile_draw),
    Pattern("last_tile_discard", "河底撈魚", 1, p.last_tile_discard),
    Pattern("all_melded", "全求", 2, p.all_melded),
    Pattern("earthly_ready", "地聽", 4, p.event("earthly_ready"), ("declared_ready",)),
    Pattern("heavenly_ready", "天聽", 8, p.event("heavenly_ready"), ("declared_ready", "earthly_ready")),
    Pattern("earthly_win", "地胡", 16, p.event("earthly_win"), HEAVEN_EARTH_REPLACE),
    Pattern("heavenly_win", "天胡", 24, p.event("heavenly_win"), HEAVEN_EARTH_REPLACE),
    # 見花見字 only:
    Pattern("exposed_kong", "明槓", 1, p.exposed_kongs),
    Pattern("concealed_kong", "暗槓", 2, p.concealed_kongs),
    Pattern("any_flower", "見花", 1, p.any_flowers),
    Pattern("any_wind_pung", "見字", 1, p.wind_pungs),
    Pattern("no_honors_no_flowers", "無字無花", 1, p.no_honors_no_flowers),
)

_PLAIN = tuple(x for x in PATTERNS if x.id not in SEE_FLOWER_SEE_WORD and x is not NO_POINTS)
_SEE_ALL = tuple(x for x in PATTERNS if x.id not in SEE_FLOWER_SEE_WORD_REPLACES and x is not NO_POINTS)


def _select(options: Mapping[str, Any]) -> tuple[Pattern, ...]:
    return _SEE_ALL if options["see_flower_see_word"] else _PLAIN


def _finish(kept: list[ScoredPattern], ctx: Context):
    """屁胡 when nothing else scored."""
    if not kept:
        kept = [NO_POINTS.scored(1)]
    return kept, {}, (sum(x.value for x in kept),)


RULESET = RuleSet(
    id="taiwan_zz", name="政治麻將 (見花見字可選)", unit="tai", hand_size=17,
    patterns=PATTERNS,
    options=PAYMENT_OPTIONS + (
        Option("see_flower_see_word", False, bool,
               "見花見字: 見花 for every flower, 見字 for every wind pung, 明槓/暗槓, 無字無花"),),
    events=("heavenly_win", "earthly_win", "heavenly_ready", "earthly_ready", "eight_flowers",
            "seven_flowers_rob"),
    alone=("eight_flowers", "seven_flowers_rob"),
    select=_select, finish=_finish,
)
