"""The table of every hand (牌局明細): one row per hand, one payment column per participant.

An empty cell means not seated, so the table also shows who sat when; a voided hand stays, struck out.
"""
from __future__ import annotations

from reportlab.platypus import Table, TableStyle

from reports import labels
from reports.model import HandLine, Report
from reports.styles import STRIPE_FILL, VOID_TEXT, Styles
from words import TRADITIONAL, word

FIXED_WIDTHS = {"number": 22, "round": 72, "dealer": 50, "outcome": 50}
MIN_WINNER_WIDTH = 125
MAX_PAYMENT_WIDTH = 34
HEADINGS = ("sheet.col_round", "sheet.col_dealer", "sheet.col_winners", "sheet.col_outcome")  # after "#"
NAME_PADDING = 2  # a player's name heads a narrow payment column: little padding, more name


def fits(participants: int, width: float) -> bool:
    """True when `participants` payment columns fit a page `width` wide at full size."""
    return sum(FIXED_WIDTHS.values()) + MIN_WINNER_WIDTH + participants * MAX_PAYMENT_WIDTH <= width


def hands_table(report: Report, styles: Styles, width: float, corrections: dict[int, str] | None = None,
                lang: str = TRADITIONAL) -> Table:
    """The hands table, `width` points wide; `corrections` marks corrected hands ("corrected 21:14")."""
    players = report.participants
    payment_width = min(MAX_PAYMENT_WIDTH, (width - sum(FIXED_WIDTHS.values()) - MIN_WINNER_WIDTH) / len(players))
    winner_width = width - sum(FIXED_WIDTHS.values()) - payment_width * len(players)
    widths = [FIXED_WIDTHS["number"], FIXED_WIDTHS["round"], FIXED_WIDTHS["dealer"], winner_width,
              FIXED_WIDTHS["outcome"]] + [payment_width] * len(players)
    header = [styles.cell_para(text) for text in ("#", *(word(lang, key) for key in HEADINGS))] + [
        styles.name_cell(name, payment_width, NAME_PADDING) for name in players]
    rows = [_row(hand, players, styles, widths, (corrections or {}).get(hand.number), lang) for hand in report.hands]
    table = Table([header] + rows, colWidths=widths, repeatRows=1)
    first_payment = 1 + len(HEADINGS)
    table.setStyle(TableStyle(styles.grid() + _row_styles(report.hands, first_payment) + [
        ("LEFTPADDING", (first_payment, 0), (-1, 0), NAME_PADDING),
        ("RIGHTPADDING", (first_payment, 0), (-1, 0), NAME_PADDING)]))
    return table


def _row(hand: HandLine, players: tuple[str, ...], styles: Styles, widths: list[float],
         corrected: str | None, lang: str) -> list:
    texts = [labels.round_text(hand, lang), labels.dealer_text(hand, lang), _winners_text(hand, lang),
             labels.outcome_text(hand, lang)]
    if hand.void:
        texts[-1] += f" {labels.table_word('void', lang)}"
    if corrected:
        texts[-1] += f" · {corrected}"
    cells = [styles.fitted(text, width, hand.void) for text, width in zip(texts, widths[1:5])]
    for index in (1, 3):  # a long name as dealer or discarder: smaller type, whole words
        if not hand.void and not styles.fits_words(texts[index], widths[index + 1]):
            cells[index] = styles.name_cell(texts[index], widths[index + 1])
    if corrected and not isinstance(cells[3], str):
        # Wrapped as CJK a time broke after its colon ("21:|14"): between words only (issue 29 item 14).
        cells[3] = styles.name_cell(texts[3], widths[4], void=hand.void)
    return [str(hand.number), *cells] + [_payment(hand, player, lang) for player in players]


def _winners_text(hand: HandLine, lang: str) -> str:
    if not hand.winners:
        return "-"
    return "; ".join(labels.winner_text(w, lang) for w in hand.winners)


def _payment(hand: HandLine, player: str, lang: str) -> str:
    if player not in hand.seats:
        return ""
    if hand.void:
        return word(lang, "sheet.void_mark")
    return labels.amount(hand.payments[player])


def _row_styles(hands: tuple[HandLine, ...], first_payment_column: int) -> list[tuple]:
    commands = [
        ("ALIGN", (first_payment_column, 0), (-1, -1), "RIGHT"),
        ("FONTSIZE", (0, 1), (-1, -1), 7.5),
    ]
    for row, hand in enumerate(hands, start=1):
        if hand.void:
            commands.append(("TEXTCOLOR", (0, row), (-1, row), VOID_TEXT))
        elif row % 2 == 0:
            commands.append(("BACKGROUND", (0, row), (-1, row), STRIPE_FILL))
    return commands
