"""The printable settlement sheet (結算表) as a PDF (reportlab platypus).

A4, portrait while the payment columns fit, landscape for larger evenings. Headings are bilingual,
Chinese in the reader's script; sentences in `lang` (`reports.sentences`), times in `zone`. Build the
report in the same `lang` for its pattern names.
"""
from __future__ import annotations

import datetime
import io

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, SimpleDocTemplate, Spacer, Table, TableStyle

from reports import labels, sentences
from reports.chart import running_total_chart
from reports.fonts import ReportFont
from reports.hands_table import fits, hands_table
from reports.model import Report
from reports.styles import Styles, clipped
from words import language, word

MARGIN = 12 * mm
PAGE_HEADER_GAP = 5 * mm
NAME_WIDTH = 130  # the player column of the small tables


def render_pdf(report: Report, font: ReportFont, lang: str = "zh",
               zone: datetime.tzinfo = datetime.timezone.utc) -> bytes:
    """The settlement sheet of `report`, every text in `font` (or its fallbacks), sentences in `lang`."""
    styles = Styles.for_font(font.name, font.fallbacks)
    pagesize = page_size(len(report.participants))
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN + PAGE_HEADER_GAP, bottomMargin=MARGIN,
        title=f"{report.header.name} {report.header.date.isoformat()}", author="Taizhang 台帳",
        initialFontName=font.name,  # the canvas default, Helvetica, would be a font not embedded
    )
    lang = language(lang)
    on_page = _page_header(report, font.name, lang)
    doc.build(_story(report, styles, doc.width, lang, zone), onFirstPage=on_page,
              onLaterPages=on_page)
    return buffer.getvalue()


def page_size(participants: int) -> tuple[float, float]:
    """A4 portrait when a payment column per participant fits, else A4 landscape."""
    return A4 if fits(participants, A4[0] - 2 * MARGIN) else landscape(A4)


def _story(report: Report, styles: Styles, width: float, lang: str, zone: datetime.tzinfo) -> list:
    header = report.header
    corrections = {hand.number: word(lang, "hand.corrected", time=_clock(hand.corrected_at, zone))
                   for hand in report.hands if hand.corrected_at is not None}
    final = None if header.closed_at is None else word(lang, "sheet.final", time=_clock(header.closed_at, zone))
    def heading(key: str):
        return styles.para(word(lang, key), styles.heading)

    return [
        styles.para(word(lang, "sheet.title", name=header.name), styles.title),
        *([styles.para(final, styles.heading)] if final else []),
        _pairs_table(styles, [
            (word(lang, "sheet.h_date"), header.date.isoformat()),
            (word(lang, "sheet.h_rules"), sentences.ruleset_name(header.ruleset, lang)),
            (word(lang, "sheet.h_stakes"), labels.stakes_text(header, lang)),
            (word(lang, "sheet.h_options"), sentences.options_text(header.options, lang, header.house_rules)),
            (word(lang, "sheet.h_house"), labels.house_rules_text(header, lang)),
            *[(word(lang, "sheet.h_house_from", number=number), labels.house_rules_text(header, lang, rules))
              for number, rules in header.house_rules_changes],
            (word(lang, "sheet.h_hands"), _hand_counts(report, lang)),
        ]),
        heading("sheet.h_standings"),
        _standings(report, styles, lang),
        heading("sheet.h_transfers"),
        *_transfers(report, styles, lang),
        heading("sheet.h_seats"),
        _seat_history(report, styles, lang),
        heading("sheet.h_stats"),
        _statistics(report, styles, lang),
        KeepTogether([heading("sheet.h_chart"), running_total_chart(report, styles.font, width)]),
        heading("sheet.h_every_hand"),
        hands_table(report, styles, width, corrections, lang),
        heading("sheet.h_why"),
        _payment_lines(report, styles, width, lang, corrections),
    ]


def _clock(moment: datetime.datetime, zone: datetime.tzinfo) -> str:
    """"21:40": a stored timestamp (naive ones are UTC) on the clock of ``zone``."""
    return moment.replace(tzinfo=moment.tzinfo or datetime.timezone.utc).astimezone(zone).strftime("%H:%M")


def _payment_lines(report: Report, styles: Styles, width: float, lang: str, corrections: dict[int, str]) -> Table:
    """Every payment of every played hand with its reasons, as the hand's `lines` give them."""
    rows = []
    for hand in report.played:
        for index, line in enumerate(hand.lines):
            mark = f" ({corrections[hand.number]})" if index == 0 and hand.number in corrections else ""
            text = sentences.line_text(line, lang) + mark
            rows.append([f"#{hand.number}" if index == 0 else "", styles.cell_para(text)])
    if not rows:
        return styles.para("-")
    table = Table(rows, colWidths=[30, width - 30], hAlign="LEFT")
    table.setStyle(TableStyle(styles.grid(header_rows=0) + [("FONTSIZE", (0, 0), (-1, -1), 7.5)]))
    return table


def _hand_counts(report: Report, lang: str) -> str:
    return word(lang, "sheet.hand_counts", played=len(report.played), voided=len(report.hands) - len(report.played))


def _pairs_table(styles: Styles, pairs: list[tuple[str, str]]) -> Table:
    table = Table([[styles.para(k), styles.para(v)] for k, v in pairs], colWidths=[90, None], hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), styles.font),  # every cell draws in some font, else Helvetica
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
    ]))
    return table


def _grid_table(styles: Styles, header: list[str], rows: list[list], widths=None, right_from: int = 1) -> Table:
    table = Table([[styles.cell_para(h) for h in header]] + rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(styles.grid() + [("ALIGN", (right_from, 1), (-1, -1), "RIGHT")]))
    return table


def _standings(report: Report, styles: Styles, lang: str) -> Table:
    ranked = sorted(report.participants, key=lambda p: (-report.totals[p], p))
    settled = report.settlement.totals
    rows = [[str(rank), styles.fitted(player, NAME_WIDTH), labels.amount(report.totals[player]),
             labels.amount(settled[player])]
            for rank, player in enumerate(ranked, start=1)]
    header = [word(lang, key) for key in ("sheet.col_rank", "sheet.col_player", "sheet.col_total",
                                          "sheet.col_settled")]
    return _grid_table(styles, header, rows, widths=[34, NAME_WIDTH, 70, 70], right_from=2)


def _transfers(report: Report, styles: Styles, lang: str) -> list:
    settlement = report.settlement
    flow = []
    if settlement.transfers:
        rows = [[styles.fitted(t.frm, NAME_WIDTH), styles.fitted(t.to, NAME_WIDTH), str(t.amount)] for t in settlement.transfers]
        header = [word(lang, key) for key in ("sheet.col_from", "sheet.col_to", "sheet.col_amount")]
        flow.append(_grid_table(styles, header, rows, widths=[NAME_WIDTH, NAME_WIDTH, 70], right_from=2))
    else:
        flow.append(styles.para(word(lang, "card.square")))
    if settlement.rounding is not None:
        explanation = sentences.rounding_text(settlement.rounding, lang)
        flow += [Spacer(0, 4), styles.para(word(lang, "sheet.rounding", explanation=explanation))]
    return flow


def _seat_history(report: Report, styles: Styles, lang: str) -> Table:
    rows = [[str(spell.seat), styles.fitted(spell.player, NAME_WIDTH), _span(spell.first_hand, spell.last_hand, lang)]
            for spell in report.seat_history]
    header = [word(lang, key) for key in ("sheet.col_seat", "sheet.col_player", "sheet.col_seat_hands")]
    return _grid_table(styles, header, rows, widths=[40, NAME_WIDTH, 120], right_from=3)


def _span(first: int | None, last: int | None, lang: str) -> str:
    if first is None:
        return word(lang, "sheet.no_hand_played")
    return f"#{first} - #{last}"


def _statistics(report: Report, styles: Styles, lang: str) -> Table:
    rows = [[styles.fitted(s.player, NAME_WIDTH), str(s.hands_played), str(s.wins), str(s.self_draws), str(s.deal_ins),
             str(s.false_wins), labels.amount(s.biggest_win) + (f" (#{s.biggest_hand})" if s.biggest_hand else "")]
            for s in report.stats()]
    header = [word(lang, key) for key in ("sheet.col_player", "sheet.col_played", "sheet.col_wins",
                                          "sheet.col_self_draws", "sheet.col_deal_ins", "sheet.col_false_wins",
                                          "sheet.col_biggest")]
    return _grid_table(styles, header, rows, widths=[NAME_WIDTH, 45, 45, 70, 60, 60, 95])


def _page_header(report: Report, font: str, lang: str):
    """The session name, its date and the page number atop every page."""
    return page_header(report.header.name, report.header.date.isoformat(), font, lang)


def page_header(name: str, detail: str, font: str, lang: str):
    """Draws ``name`` (cut short to leave room for the rest), ``detail`` and the page number atop every page."""
    rest = f" · {detail} · {word(lang, 'sheet.brand')}"

    def draw(canvas, doc):
        canvas.saveState()
        canvas.setFont(font, 8)
        top = doc.pagesize[1] - MARGIN
        room = doc.width - stringWidth(rest + "    " + word(lang, "sheet.page", page=999), font, 8)
        canvas.drawString(doc.leftMargin, top, clipped(name, font, 8, room) + rest)
        canvas.drawRightString(doc.pagesize[0] - doc.rightMargin, top, word(lang, "sheet.page", page=doc.page))
        canvas.restoreState()

    return draw
