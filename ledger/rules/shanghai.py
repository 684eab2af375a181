"""``shanghai``: 上海 清混碰, seed 002, as RULES.md §7 rules it.

A win must show a qualifying pattern; a plain hand (垃圾胡) is refused. A **勒 hand** scores
``10 × Σ勒`` and lists its 勒 patterns only; a **花 hand** (混一色 or 碰碰胡, 0 番 each) scores
``min((花 + 2) × 2^番, 10)``. ``points`` is one share in 底分, before 荒番. Rulings made here: 大吊車
needs four declared melds, concealed kongs included; 八花 is the event only (eight flowers on an
ordinary hand are eight 花); a kong's 花 replaces its pung's; 門清 counts on any win; 搶槓 ×3 is a
payment rule; 地胡 is any non-dealer win in the first go-around. House rules may change the values.

A 混一色 with a 東 pung (1 花) and a chow meld, won on a discard: 1 + 2 = 3 底分.

>>> from ledger.rules import score
>>> result = score("shanghai", {"concealed": "456m789m1112z", "winning_tile": "2z",
...                             "melds": [{"kind": "chow", "tiles": "234m"}]}, {"by": "discard"})
>>> [(x.id, x.value, x.unit) for x in result.patterns], result.extra
([('half_flush', 0, 'fan'), ('wind_pung', 1, 'flower')], {'flowers': 1, 'lei': 0, 'fan': 0, 'points': 3})
"""
from __future__ import annotations

from collections.abc import Callable

from ledger import tiles
from ledger.errors import InvalidHand
from ledger.rules import predicates as p
from ledger.rules.names import pattern_maker, ruleset_name
from ledger.scoring import HONOURS, Context, Pattern, RuleSet, Score, ScoredPattern, needs
from words import TRADITIONAL, pattern_name

pattern = pattern_maker("shanghai")
LEI_POINTS = 10
#: 勒子: the most a 花 hand can be worth, in 底分.
CAP = 10
BASE_FLOWERS = 2

#: The seed's 胡牌牌型; a win needs one of them.
QUALIFYING = ("big_hanging", "heavenly_win", "earthly_win", "after_kong", "half_flush", "full_flush",
              "all_pungs", "half_flush_pungs", "full_flush_pungs", "all_honors", "all_honors_any",
              "eight_flowers")
QUALIFYING_NAMES = ", ".join(pattern_name("shanghai", pattern_id, TRADITIONAL) for pattern_id in QUALIFYING)


def _full_flush_pungs(c: Context) -> bool:
    """清碰: 清一色 and 碰碰胡."""
    return p.full_flush(c) and p.all_pungs(c)


@needs(HONOURS)
def _half_flush_pungs(c: Context) -> bool:
    """混碰: 混一色 and 碰碰胡."""
    return p.half_flush(c) and p.all_pungs(c)


@needs(HONOURS)
def _all_honor_pungs(c: Context) -> bool:
    """字一色: honours only, all pungs (the 碰碰胡 of winds and dragons)."""
    return p.all_honors(c) and p.all_pungs(c)


def _big_hanging(c: Context) -> bool:
    """大吊車: four melds declared, the one tile left paired by the winning tile."""
    return c.reading is not None and len(c.hand.melds) == 4


def _pungs_of(honours: tuple[int, ...]) -> Callable[[Context], int]:
    """Pungs (not kongs) of the given honours, exposed or concealed (碰 / 暗刻)."""
    @needs(HONOURS)
    def count(c: Context) -> int:
        return sum(1 for g in c.sets if g.kind == "pung" and g.first in honours)
    return count


def _kongs_of(kind: Callable[[int], bool], concealed: bool) -> Callable[[Context], int]:
    """Kongs of one tile kind, exposed (明槓/上槓) or concealed (暗槓)."""
    def count(c: Context) -> int:
        return sum(1 for g in c.kongs if kind(g.first) and g.concealed == concealed)
    return count


def _is_wind(tile: int) -> bool:
    return tile in tiles.WINDS


def _is_dragon(tile: int) -> bool:
    return tile in tiles.DRAGONS


def _lei(pattern_id: str, value: int, count, replaces: tuple[str, ...] = ()) -> Pattern:
    return pattern(pattern_id, value, count, replaces, unit="lei")


def _flower(pattern_id: str, value: int, count) -> Pattern:
    return pattern(pattern_id, value, count, unit="flower")


PATTERNS = (
    _lei("heavenly_win", 10, p.event("heavenly_win")),
    _lei("earthly_win", 8, p.event("earthly_win")),
    _lei("eight_flowers", 4, p.event("eight_flowers")),
    _lei("all_honors", 4, _all_honor_pungs, ("all_honors_any",)),
    _lei("all_honors_any", 2, p.all_honors),
    _lei("full_flush_pungs", 2, _full_flush_pungs, ("full_flush", "all_pungs")),
    _lei("full_flush", 1, p.full_flush),
    _lei("half_flush_pungs", 1, _half_flush_pungs, ("half_flush", "all_pungs")),
    _lei("big_hanging", 1, _big_hanging),
    _lei("after_kong", 1, p.after_kong),
    pattern("half_flush", 0, p.half_flush, unit="fan"),
    pattern("all_pungs", 0, p.all_pungs, unit="fan"),
    pattern("concealed", 1, lambda c: c.concealed_hand, unit="fan"),
    _flower("flower", 1, p.any_flowers),
    _flower("wind_pung", 1, _pungs_of(tiles.WINDS)),
    _flower("dragon_pung", 2, _pungs_of(tiles.DRAGONS)),
    _flower("exposed_kong", 1, _kongs_of(tiles.is_suited, False)),
    _flower("concealed_kong", 2, _kongs_of(tiles.is_suited, True)),
    _flower("wind_exposed_kong", 2, _kongs_of(_is_wind, False)),
    _flower("wind_concealed_kong", 3, _kongs_of(_is_wind, True)),
    _flower("dragon_exposed_kong", 3, _kongs_of(_is_dragon, False)),
    _flower("dragon_concealed_kong", 4, _kongs_of(_is_dragon, True)),
)


def finisher(cap: int) -> Callable[[list[ScoredPattern], Context], tuple]:
    """The rule set's ``finish`` with 勒子 ``cap`` (house rules may change it: ``lei_cap``)."""
    def finish(kept: list[ScoredPattern], ctx: Context):
        """勒 hand or 花 hand; the rank prefers a qualifying reading, then more points."""
        lei_patterns = [x for x in kept if x.unit == "lei"]
        if lei_patterns:
            lei = sum(x.value for x in lei_patterns)
            extra = {"flowers": 0, "lei": lei, "fan": 0, "points": LEI_POINTS * lei}
            kept = lei_patterns
        else:
            flowers = sum(x.value for x in kept if x.unit == "flower")
            fan = sum(x.value for x in kept if x.unit == "fan")
            extra = {"flowers": flowers, "lei": 0, "fan": fan,
                     "points": min((flowers + BASE_FLOWERS) * 2 ** fan, cap)}
        return kept, extra, (_qualifies(kept), extra["points"])
    return finish


def _qualifies(kept) -> bool:
    return any(x.id in QUALIFYING for x in kept)


def _check(result: Score, ctx: Context) -> None:
    """The qualifying-hand rule: a plain hand (垃圾胡) is not a win."""
    if not _qualifies(result.patterns):
        raise InvalidHand("hand: 垃圾胡 (plain hand): it has none of the qualifying patterns "
                          f"({QUALIFYING_NAMES}), so it cannot win under 清混碰", "hand")


RULESET = RuleSet(
    id="shanghai", name=ruleset_name("shanghai"), unit="flower", hand_size=14,
    patterns=PATTERNS, options=(), events=("heavenly_win", "earthly_win", "eight_flowers"),
    alone=("eight_flowers",), shapeless=p.all_honors, finish=finisher(CAP), check=_check,
)
