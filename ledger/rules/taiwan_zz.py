"""``taiwan_zz``: the 政治麻將 table of seed 000, as RULES.md §5 rules it.

Option ``see_flower_see_word`` (見花見字) swaps 花牌 for 見花 and 門風/圈風 for
見字, and adds 明槓, 暗槓 and 無字無花. ``no_points`` (屁胡, 0 台) is shown
alone when nothing else scores, so the breakdown is never empty.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.rules import predicates as p
from ledger.rules.names import pattern_maker, ruleset_name
from ledger.rules.taiwan import CONCEALED_PUNG_PATTERNS, HEAVEN_EARTH_REPLACE, PAYMENT_OPTIONS
from ledger.scoring import Context, Option, Pattern, RuleSet, ScoredPattern

pattern = pattern_maker("taiwan_zz")

WIND_PATTERNS = ("seat_wind", "round_wind", "any_wind_pung")
#: Patterns that exist only with 見花見字, and the ones it switches off.
SEE_FLOWER_SEE_WORD = ("exposed_kong", "concealed_kong", "any_flower", "any_wind_pung",
                       "no_honors_no_flowers")
SEE_FLOWER_SEE_WORD_REPLACES = ("seat_flower", "seat_wind", "round_wind")

NO_POINTS = pattern("no_points", 0, lambda c: True)

PATTERNS = (
    NO_POINTS,
    pattern("declared_ready", 1, p.declared_ready),
    pattern("single_wait", 1, p.single_wait),
    pattern("self_draw", 1, p.self_drawn),
    pattern("concealed", 1, p.concealed),
    pattern("concealed_self_draw", 3, p.concealed_self_draw, ("concealed", "self_draw")),
    pattern("seat_wind", 1, p.seat_wind_pung),
    pattern("round_wind", 1, p.round_wind_pung),
    pattern("seat_flower", 1, p.seat_flowers),
    pattern("flower_set", 2, p.flower_sets),
    pattern("eight_flowers", 8, p.event("eight_flowers")),
    pattern("seven_flowers_rob", 8, p.event("seven_flowers_rob")),
    pattern("all_chows", 2, p.all_chows),
    pattern("all_pungs", 4, p.all_pungs),
    pattern("three_concealed_pungs", 2, p.at_least(p.concealed_pungs, 3)),
    pattern("four_concealed_pungs", 5, p.at_least(p.concealed_pungs, 4),
            ("three_concealed_pungs",)),
    pattern("five_concealed_pungs", 8, p.at_least(p.concealed_pungs, 5),
            CONCEALED_PUNG_PATTERNS[:2]),
    pattern("after_kong", 1, p.after_kong),
    pattern("half_flush", 4, p.half_flush),
    pattern("full_flush", 8, p.full_flush),
    pattern("all_honors", 8, p.all_honors),
    pattern("small_three_dragons", 4, p.small_three_dragons, ("dragon_pung",)),
    pattern("big_three_dragons", 8, p.big_three_dragons, ("dragon_pung",)),
    pattern("small_four_winds", 8, p.small_four_winds, WIND_PATTERNS),
    pattern("big_four_winds", 16, p.big_four_winds, WIND_PATTERNS + ("small_four_winds",)),
    pattern("dragon_pung", 1, p.dragon_pungs),
    pattern("robbing_kong", 1, p.robbed_kong),
    pattern("last_tile_draw", 1, p.last_tile_draw),
    pattern("last_tile_discard", 1, p.last_tile_discard),
    pattern("all_melded", 2, p.all_melded),
    pattern("earthly_ready", 4, p.event("earthly_ready"), ("declared_ready",)),
    pattern("heavenly_ready", 8, p.event("heavenly_ready"), ("declared_ready", "earthly_ready")),
    pattern("earthly_win", 16, p.event("earthly_win"), HEAVEN_EARTH_REPLACE),
    pattern("heavenly_win", 24, p.event("heavenly_win"), HEAVEN_EARTH_REPLACE),
    # 見花見字 only:
    pattern("exposed_kong", 1, p.exposed_kongs),
    pattern("concealed_kong", 2, p.concealed_kongs),
    pattern("any_flower", 1, p.any_flowers),
    pattern("any_wind_pung", 1, p.wind_pungs),
    pattern("no_honors_no_flowers", 1, p.no_honors_no_flowers),
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
    id="taiwan_zz", name=ruleset_name("taiwan_zz"), unit="tai", hand_size=17,
    patterns=PATTERNS,
    options=PAYMENT_OPTIONS + (
        Option("see_flower_see_word", False, bool,
               "見花見字: 見花 for every flower, 見字 for every wind pung, 明槓/暗槓, 無字無花"),),
    events=("heavenly_win", "earthly_win", "heavenly_ready", "earthly_ready", "eight_flowers",
            "seven_flowers_rob"),
    alone=("eight_flowers", "seven_flowers_rob"),
    select=_select, finish=_finish,
)
