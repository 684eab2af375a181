"""The hands as CSV (牌局明細): one row per hand per seated player, with the payment.

UTF-8 with a byte order mark, so spreadsheets open the Chinese names. A voided hand (作廢) keeps its
rows with empty `payment`, so the other hands' payments sum to each total. Formula-like text is
written with a leading `'` (OWASP's CSV injection advice); numbers stay numbers.
"""
from __future__ import annotations

import csv
import io

from ledger.table import WINDS
from reports import labels
from reports.model import HandLine, Report

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
COLUMNS = ("hand", "void", "round_wind", "jiang", "hand_wind", "dealer", "streak", "seat", "seat_wind",
           "player", "role", "outcome", "value", "patterns", "payment", "running_total")


def render_csv(report: Report) -> bytes:
    """The CSV file, UTF-8 with BOM."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    running = dict.fromkeys(report.participants, 0)
    for hand in report.hands:
        for seat, player in enumerate(hand.seats):
            if not hand.void:
                running[player] += hand.payments[player]
            writer.writerow([inert(cell) for cell in _row(hand, seat, player, running[player])])
    return buffer.getvalue().encode("utf-8-sig")


def inert(cell: object) -> object:
    """A cell a spreadsheet shows as text, never runs: formula-like text gets a leading `'`.

    >>> print(inert('=HYPERLINK("http://x","y")'))
    '=HYPERLINK("http://x","y")
    >>> inert("-Dan"), inert("Amy"), inert(-160)
    ("'-Dan", 'Amy', -160)
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _row(hand: HandLine, seat: int, player: str, running_total: int) -> list:
    winner = next((w for w in hand.winners if w.player == player), None)
    dealer_seat = WINDS.index(hand.hand_wind)
    return [
        hand.number, int(hand.void), hand.round_wind, hand.jiang, hand.hand_wind, hand.dealer, hand.streak,
        seat, WINDS[(seat - dealer_seat) % 4], player, _role(hand, player, winner is not None), _outcome(hand),
        "" if winner is None or winner.value is None else winner.value,
        "" if winner is None else "; ".join(labels.pattern_text(p) for p in winner.patterns),
        "" if hand.void else hand.payments[player],
        "" if hand.void else running_total,
    ]


def _role(hand: HandLine, player: str, won: bool) -> str:
    if won:
        return "winner"
    if hand.false_win == player:
        return "false_win"
    return "discarder" if hand.discarder == player else ""


def _outcome(hand: HandLine) -> str:
    if hand.false_win:
        return "false_win"
    return f"draw: {hand.draw}" if hand.draw else hand.by
