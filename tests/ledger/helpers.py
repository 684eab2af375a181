"""Tiny builders shared by the ledger tests: melds, scoring calls, breakdowns."""
from __future__ import annotations

from ledger.rules import score


def chow(tiles: str) -> dict:
    return {"kind": "chow", "tiles": tiles}


def pung(tiles: str) -> dict:
    return {"kind": "pung", "tiles": tiles}


def kong(tiles: str, concealed: bool = False) -> dict:
    return {"kind": "kong", "tiles": tiles, "concealed": concealed}


def breakdown(result) -> dict[str, int]:
    """``{pattern id: value}`` of a :class:`~ledger.scoring.Score`."""
    return {p.id: p.value for p in result.patterns}


def score_hand(ruleset: str, concealed, winning_tile, melds=(), flowers=None, *, by="discard",
               seat="S", round_wind="E", hand_wind="E", dealer=None, options=None, event=None,
               **flags):
    """Score one hand; the defaults are a non-dealer (南) in 東風東局 winning on a discard."""
    hand = {"concealed": concealed, "melds": list(melds), "winning_tile": winning_tile,
            "flowers": flowers}
    win = {"by": by, "event": event, **flags}
    return score(ruleset, hand, win, seat_wind=seat, round_wind=round_wind, hand_wind=hand_wind,
                 dealer=dealer, options=options)
