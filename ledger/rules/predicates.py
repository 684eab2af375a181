"""Pattern predicates shared by the rule sets: ``Context -> int`` (0 = not scored).

Each function is named for what it looks at, so a rule set reads as a table:
``pattern("half_flush", 4, half_flush)`` (``ledger.rules.names``).
"""
from __future__ import annotations

from collections import Counter

from ledger import tiles
from ledger.scoring import CHOWS, FLAGGED, FLOWERS, HONOURS, PUNGS, Context, needs

#: Tile kinds by class, so a predicate asks one set question instead of one per tile.
TERMINALS = frozenset(t for t in range(tiles.EAST) if tiles.is_terminal(t))
TERMINALS_AND_HONORS = TERMINALS | frozenset(range(tiles.EAST, tiles.KINDS))
WIND_SET = frozenset(tiles.WINDS)
DRAGON_SET = frozenset(tiles.DRAGONS)
#: The first tile of a suit (1m, 1p, 1s): where a straight 123 456 789 starts.
SUIT_STARTS = frozenset((0, 9, 18))
#: The two flowers of each seat wind (R7), by wind tile: 東 春 梅, 南 夏 蘭, 西 秋 菊, 北 冬 竹.
FLOWERS_OF_WIND = {wind: frozenset(f for f in tiles.FLOWERS if tiles.flower_wind(f) == wind) for wind in tiles.WINDS}
#: Sets (by kind and first tile) holding a terminal: 123/789 chows and terminal pungs/pairs.
_TERMINAL_CHOW_STARTS = frozenset(t for t in range(tiles.EAST) if tiles.number(t) in (1, 7))


# ---- how the hand was won ---------------------------------------------------
def concealed(c: Context) -> bool:
    """門清 (R3), however won: 門清一摸三 / 門清自摸 replace it on a self-draw (R8), not the predicate."""
    return c.concealed_hand


def self_drawn(c: Context) -> bool:
    """自摸: any own draw (R5); on a 門清 hand 門清一摸三 / 門清自摸 replace it (R8)."""
    return c.self_drawn


def concealed_self_draw(c: Context) -> bool:
    """門清自摸 / 門清一摸三."""
    return c.concealed_hand and c.self_drawn


def robbed_kong(c: Context) -> bool:
    return c.win.by == "robbing_kong"


@needs(FLAGGED)
def declared_ready(c: Context) -> bool:
    return c.win.declared_ready


@needs(FLAGGED)
def after_kong(c: Context) -> bool:
    return c.win.after_kong


@needs(FLAGGED)
def last_tile_discard(c: Context) -> bool:
    """河底撈魚 / 海底撈魚: the last discard."""
    return c.win.last_tile and c.win.by == "discard"


@needs(FLAGGED)
def last_tile_draw(c: Context) -> bool:
    """海底撈月: self-drew the last wall tile."""
    return c.win.last_tile and c.self_drawn


def event(event_id: str):
    """A flag the tiles cannot show (R9)."""
    @needs(FLAGGED)
    def flagged(c: Context) -> bool:
        return c.win.event == event_id
    flagged.__name__ = event_id
    return flagged


def single_wait(c: Context) -> bool:
    """獨聽: exactly one wait kind (R4)."""
    return len(c.waits) == 1


def all_melded(c: Context) -> bool:
    """全求: five sets melded, none a concealed kong, won on a discard on the last single tile."""
    melds = c.hand.melds if c.hand else ()
    return (len(melds) == len(c.sets) and not any(m.concealed for m in melds)
            and c.win.by == "discard")


def half_melded(c: Context) -> bool:
    """半求: 全求's hand (five sets melded, no concealed kong, one tile left) won by self-draw instead."""
    melds = c.hand.melds if c.hand else ()
    return (len(melds) == len(c.sets) and not any(m.concealed for m in melds)
            and c.self_drawn)


# ---- flowers ----------------------------------------------------------------
@needs(FLOWERS)
def seat_flowers(c: Context) -> int:
    """花牌: flowers of the seat wind (R7), one set intersection: most readings ask."""
    return len(FLOWERS_OF_WIND[c.seat_wind].intersection(c.flowers))


@needs(FLOWERS)
def any_flowers(c: Context) -> int:
    """見花: every flower."""
    return len(c.flowers)


@needs(FLOWERS)
def flower_sets(c: Context) -> int:
    """花槓: complete 春夏秋冬 and 梅蘭菊竹 sets."""
    if len(c.flowers) < 4:
        return 0
    held = set(c.flowers)
    return sum(1 for four in (tiles.FLOWERS[:4], tiles.FLOWERS[4:]) if held.issuperset(four))


# ---- honours ----------------------------------------------------------------
@needs(HONOURS)
def seat_wind_pung(c: Context) -> bool:
    return c.pung_of(c.seat_wind)


@needs(HONOURS)
def round_wind_pung(c: Context) -> bool:
    return c.pung_of(c.round_wind)


@needs(HONOURS)
def hand_wind_pung(c: Context) -> bool:
    """風牌: pung of the 局 wind (R6)."""
    return c.pung_of(c.hand_wind)


@needs(HONOURS)
def wind_pungs(c: Context) -> int:
    return len(c.pung_tiles & WIND_SET)


@needs(HONOURS)
def dragon_pungs(c: Context) -> int:
    return len(c.pung_tiles & DRAGON_SET)


@needs(HONOURS)
def small_three_dragons(c: Context) -> bool:
    return dragon_pungs(c) == 2 and c.reading.pair.first in tiles.DRAGONS


@needs(HONOURS)
def big_three_dragons(c: Context) -> bool:
    return dragon_pungs(c) == 3


@needs(HONOURS)
def small_four_winds(c: Context) -> bool:
    return wind_pungs(c) == 3 and c.reading.pair.first in tiles.WINDS


@needs(HONOURS)
def big_four_winds(c: Context) -> bool:
    return wind_pungs(c) == 4


def no_honors_no_flowers(c: Context) -> bool:
    """無字無花."""
    return not c.has_honor and not c.flowers


# ---- suits and terminals ------------------------------------------------------
def all_simples(c: Context) -> bool:
    """斷么九: every tile 2–8 of a suit."""
    return bool(c.kinds) and TERMINALS_AND_HONORS.isdisjoint(c.kinds)


@needs(HONOURS)
def half_flush(c: Context) -> bool:
    """混一色: one suit and honours."""
    return len(c.suits) == 1 and c.has_honor


def full_flush(c: Context) -> bool:
    """清一色: one suit, no honours."""
    return len(c.suits) == 1 and not c.has_honor


@needs(HONOURS)
def all_honors(c: Context) -> bool:
    """字一色: honours only."""
    return bool(c.kinds) and not c.suits


def _every_set_holds(c: Context, pung_tiles: frozenset[int]) -> bool:
    """Whether every chow is 123/789 and every pung (and the pair) is of ``pung_tiles``."""
    return (bool(c.reading) and _TERMINAL_CHOW_STARTS.issuperset(c.chow_set)
            and pung_tiles.issuperset(c.pung_tiles) and c.reading.pair.first in pung_tiles)


@needs(HONOURS)
def outside_hand(c: Context) -> bool:
    """混全帶么: every set and the pair hold a terminal or honour, and there is an honour."""
    return c.has_honor and _every_set_holds(c, TERMINALS_AND_HONORS)


def pure_outside_hand(c: Context) -> bool:
    """純全帶么: every set and the pair hold a terminal, no honours."""
    return not c.has_honor and _every_set_holds(c, TERMINALS)


@needs(HONOURS)
def all_terminals_and_honors(c: Context) -> bool:
    """混老頭: pungs + pair of terminals and honours, with at least one of each."""
    return (all_pungs(c) and TERMINALS_AND_HONORS.issuperset(c.kinds)
            and c.has_honor and not TERMINALS.isdisjoint(c.kinds))


@needs(PUNGS)
def all_terminals(c: Context) -> bool:
    """清老頭: pungs + pair of terminals only."""
    return all_pungs(c) and TERMINALS.issuperset(c.kinds)


# ---- shapes -------------------------------------------------------------------
@needs(PUNGS)
def all_pungs(c: Context) -> bool:
    """碰碰胡: every set a pung or kong."""
    return bool(c.sets) and not c.chows


@needs(CHOWS)
def all_chows(c: Context) -> bool:
    """Every set a chow and a suited pair, no honours, no flowers (平胡 without a wait condition)."""
    return bool(c.sets) and not c.pungs and not c.has_honor and not c.flowers


@needs(CHOWS)
def all_chows_two_sided(c: Context) -> bool:
    """平胡 in ``taiwan``: also won on a two-sided wait in this reading."""
    return all_chows(c) and c.reading.wait == "two_sided"


def identical_chow_pairs(c: Context) -> int:
    """Pairs of identical chows (three alike are one pair)."""
    if len(c.chow_firsts) == len(c.chow_set):
        return 0
    return sum(n // 2 for n in Counter(c.chow_firsts).values())


def pure_double_chow(c: Context) -> bool:
    """一盃口: 門清 and two identical chows."""
    return c.concealed_hand and len(c.chow_firsts) > len(c.chow_set)


@needs(CHOWS)
def twice_pure_double_chow(c: Context) -> bool:
    """二盃口: 門清 and two pairs of identical chows."""
    return c.concealed_hand and len(c.chows) >= 4 and identical_chow_pairs(c) >= 2


@needs(CHOWS)
def pure_straight(c: Context) -> bool:
    """一條龍: 123, 456, 789 of one suit (a plain loop over the few chows, as in :func:`_in_three_suits`)."""
    chows = c.chow_set
    if len(chows) < 3:
        return False
    for first in chows:
        if first in SUIT_STARTS and first + 3 in chows and first + 6 in chows:
            return True
    return False


@needs(CHOWS)
def mixed_triple_chow(c: Context) -> bool:
    """三色同順: chows of the same numbers in all three suits."""
    return len(c.chow_set) >= 3 and _in_three_suits(c.chow_set)


@needs(PUNGS)
def triple_pung(c: Context) -> bool:
    """三色同刻: pungs or kongs of the same number in all three suits."""
    return len(c.pung_tiles) >= 3 and _in_three_suits(c.pung_tiles)


def _in_three_suits(firsts) -> bool:
    """Whether ``firsts`` (first tiles of sets) hold one number in all three suits; a plain loop over at most
    five, cheaper than a generator over the nine numbers."""
    for first in firsts:
        if first < 9 and first + 9 in firsts and first + 18 in firsts:
            return True
    return False


def kongs(c: Context) -> int:
    return len(c.kongs)


def exposed_kongs(c: Context) -> int:
    """明槓/加槓."""
    return sum(1 for g in c.kongs if not g.concealed)


def concealed_kongs(c: Context) -> int:
    """暗槓."""
    return sum(1 for g in c.kongs if g.concealed)


def at_least(counter, n: int):
    """``counter(c) >= n`` as a predicate, e.g. three concealed pungs (``needs(PUNGS)``)."""
    def enough(c: Context) -> bool:
        return counter(c) >= n
    enough.__name__ = f"{getattr(counter, '__name__', 'count')}_at_least_{n}"
    return needs(PUNGS)(enough) if n >= 3 and counter in PUNG_COUNTERS else enough


def concealed_pungs(c: Context) -> int:
    """暗刻 (R2)."""
    return c.concealed_pungs


#: Counters of some of a reading's pungs and kongs: each counts no more than the reading's pungs and kongs.
PUNG_COUNTERS = (kongs, concealed_pungs)
