"""Hypothesis strategies for random legal winning hands (和牌), shared by the scoring tests.

``winning_hands(ruleset_size=17)`` builds a hand the way a table does: a pair
and 5 sets (4 for ``ruleset_size=14``), each set a chow 順子, pung 刻子 or kong
槓子, never more than four copies of a tile. Some sets are declared melds
(chow, pung, exposed or concealed kong); the rest and the pair stay concealed,
and the winning tile is one of those concealed tiles. Flowers, how the hand was
won and the win flags are random too. It draws ``(hand, win)``: the two dicts
:func:`ledger.rules.score` takes, in canonical compact notation.

``seats()`` draws the wind keywords of :func:`ledger.rules.score`.
"""
from __future__ import annotations

from hypothesis import strategies as st

from ledger import tiles

KINDS = range(tiles.KINDS)
CHOW_STARTS = tuple(t for t in KINDS if tiles.is_suited(t) and tiles.number(t) <= 7)
#: Drawn uniformly, so chows come up most, then pungs, then kongs.
SET_KINDS = ("chow", "chow", "chow", "pung", "pung", "kong", "concealed_kong")


@st.composite
def winning_hands(draw, ruleset_size: int = 17):
    """``(hand, win)`` of a legal winning hand with ``ruleset_size`` tiles (17 or 14)."""
    left = [4] * tiles.KINDS
    pair = draw(st.sampled_from(KINDS))
    left[pair] -= 2
    hidden = [pair, pair]
    melds = []
    for _ in range((ruleset_size - 2) // 3):
        kind, first = _set(draw, left)
        if kind in ("chow", "pung") and not draw(st.booleans()):
            hidden.extend(_set_tiles(kind, first))
        else:
            melds.append(_meld(kind, first))
    winning_tile = draw(st.sampled_from(tuple(sorted(hidden))))
    hidden.remove(winning_tile)
    by = draw(st.sampled_from(("discard", "self_draw", "robbing_kong")))
    win = {"by": by, "after_kong": by == "self_draw" and draw(st.booleans()),
           "last_tile": draw(st.booleans()), "declared_ready": draw(st.booleans())}
    flowers = draw(st.sets(st.sampled_from(tiles.FLOWERS), max_size=8))
    hand = {"concealed": tiles.to_compact(hidden), "melds": melds,
            "winning_tile": tiles.code(winning_tile), "flowers": tiles.to_compact(flowers)}
    return hand, win


def seats():
    """Keyword arguments ``seat_wind``, ``round_wind``, ``hand_wind`` (the dealer sits 東, R6)."""
    wind = st.sampled_from(tiles.WIND_LETTERS)
    return st.fixed_dictionaries({"seat_wind": wind, "round_wind": wind, "hand_wind": wind})


def _set(draw, left: list[int]):
    """One set that the tiles still ``left`` allow, taken out of ``left``.

    A plain function given ``draw``, its choices sampled from tuples: hypothesis caches a strategy built from
    hashable arguments, where a composite called with a list, or ``sampled_from`` a list, is a new strategy that it
    validates on every draw (most of the property tests' time, tests/ledger/test_table_properties.py); the values
    drawn are the same.
    """
    firsts = {"chow": [t for t in CHOW_STARTS if min(left[t:t + 3]) >= 1],
              "pung": [t for t in KINDS if left[t] >= 3],
              "kong": [t for t in KINDS if left[t] == 4]}
    firsts["concealed_kong"] = firsts["kong"]
    kind = draw(st.sampled_from(tuple(k for k in SET_KINDS if firsts[k])))
    first = draw(st.sampled_from(tuple(firsts[kind])))
    for t in _set_tiles(kind, first):
        left[t] -= 1
    return kind, first


def _set_tiles(kind: str, first: int) -> list[int]:
    if kind == "chow":
        return [first, first + 1, first + 2]
    return [first] * (3 if kind == "pung" else 4)


def _meld(kind: str, first: int) -> dict:
    meld = {"kind": "kong" if kind == "concealed_kong" else kind,
            "tiles": tiles.to_compact(_set_tiles(kind, first))}
    if kind == "concealed_kong":
        meld["concealed"] = True
    return meld
