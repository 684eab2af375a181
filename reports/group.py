"""The group sheet (牌友會報表) as a PDF, and the group's three CSVs: standings, balances, payments.

Everything is drawn from plain data the server has already worked out (`GroupReport`): nothing here
touches the database or computes money. The PDF uses the evening sheet's font, styles and name
cutting, and its words (headings bilingual, sentences in `lang`); the CSVs are as `reports.csv`.
"""
from __future__ import annotations

import csv
import dataclasses
import datetime
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, SimpleDocTemplate, Spacer, Table, TableStyle

from reports import labels, sentences
from reports.chart import line_chart
from reports.csv import inert
from reports.fonts import ReportFont
from reports.pdf import MARGIN, PAGE_HEADER_GAP, page_header
from reports.styles import Styles
from words import TRADITIONAL, language, table, word

NAME_WIDTH = 76  # the member column of the tables


@dataclass(frozen=True)
class GroupEvening:
    """One evening of the period: `totals` by member's current name (the server maps players to members)."""

    id: str
    name: str
    day: datetime.date
    ruleset: str
    hands: int
    totals: Mapping[str, int]


@dataclass(frozen=True)
class GroupReport:
    """What the group sheet shows. `period_from` / `period_to` None: from the first / to the last evening.

    `standings` as `ledger.figures.standings` gives them; `balances` by member's current name; `transfers`
    clear them; `evenings` in any order (drawn by day)."""

    name: str
    standings: Sequence[Mapping]
    balances: Mapping[str, int]
    transfers: Sequence[Mapping]
    evenings: Sequence[GroupEvening]
    period_from: datetime.date | None = None
    period_to: datetime.date | None = None
    made: datetime.date = field(default_factory=datetime.date.today)

    @property
    def by_day(self) -> list[GroupEvening]:
        return sorted(self.evenings, key=lambda evening: evening.day)

    def period_text(self, lang: str = "en") -> str:
        """"2026-11-01 – 2026-11-30", "…" for an open end; with neither end, every evening in `lang`'s words.

        >>> GroupReport("Club", [], {}, [], [], period_from=datetime.date(2026, 11, 1)).period_text()
        '2026-11-01 – …'
        >>> GroupReport("Club", [], {}, [], []).period_text("zh-Hant"), GroupReport("Club", [], {}, [], []).period_text("en")
        ('全部場次', 'All evenings')
        """
        if self.period_from is None and self.period_to is None:
            return word(lang, "card.period_all")
        start = self.period_from.isoformat() if self.period_from else "…"
        end = self.period_to.isoformat() if self.period_to else "…"
        return f"{start} – {end}"

    def cumulative(self) -> dict[str, list[int]]:
        """Each member's cumulative net money after each evening, starting at 0 (by the standings' order).

        >>> report = GroupReport("G", [{"name": "Amy"}, {"name": "Ben"}], {}, [], [
        ...     GroupEvening("b", "2nd", datetime.date(2026, 11, 13), "taiwan", 3, {"Amy": -50, "Ben": 50}),
        ...     GroupEvening("a", "1st", datetime.date(2026, 11, 6), "taiwan", 3, {"Amy": 130})])
        >>> report.cumulative()
        {'Amy': [0, 130, 80], 'Ben': [0, 0, 50]}
        """
        names = [row["name"] for row in self.standings]
        for evening in self.by_day:
            names += [name for name in evening.totals if name not in names]
        series = {name: [0] for name in names}
        for evening in self.by_day:
            for name, values in series.items():
                values.append(values[-1] + evening.totals.get(name, 0))
        return series


# -- the PDF -------------------------------------------------------------------


def render_group_pdf(report: GroupReport, font: ReportFont, lang: str = TRADITIONAL) -> bytes:
    """The group sheet of `report`, every text in `font` (or its fallbacks), its words in `lang`."""
    lang = language(lang)
    styles = Styles.for_font(font.name, font.fallbacks)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + PAGE_HEADER_GAP,
        bottomMargin=MARGIN, title=f"{report.name} {report.period_text(lang)}", author="Taizhang 台帳",
        initialFontName=font.name,
    )
    on_page = _page_header(report, font.name, lang)
    doc.build(_story(report, styles, doc.width, lang), onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _story(report: GroupReport, styles: Styles, width: float, lang: str) -> list:
    styles = dataclasses.replace(styles, heading=ParagraphStyle("group-heading", parent=styles.heading,
                                                                keepWithNext=1))  # never alone at a page's foot

    def heading(key: str):
        return styles.para(word(lang, key), styles.heading)

    story = [
        styles.para(word(lang, "sheet.group_title", name=report.name), styles.title),
        styles.para(word(lang, "sheet.group_period", period=report.period_text(lang), evenings=len(report.evenings),
                         made=report.made.isoformat())),
        heading("sheet.group_standings"),
        *_standings(report, styles, lang),
        heading("sheet.group_balances"),
        _balances(report, styles, lang),
        heading("sheet.group_clearing"),
        _transfers(report, styles, lang),
    ]
    if report.evenings:
        story.append(KeepTogether([heading("sheet.group_chart"), line_chart(report.cumulative(), styles.font, width)]))
    story += [heading("sheet.group_evenings"), _evenings(report, styles, width, lang)]
    return story


def _grid(styles: Styles, header: list[str], rows: list[list], widths: list[float], right: range) -> Table:
    """A table with a shaded header row repeated on every page; the columns in `right` right-aligned."""
    # A header breaks between words only, its type smaller until its longest word fits ("局 hands", "名次",
    # "放槍率" whole: issue 29 item 14).
    head = [styles.name_cell(text, width) for text, width in zip(header, widths)]
    table = Table([head] + rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(styles.grid() + [("ALIGN", (right.start, 1), (right.stop - 1, -1), "RIGHT"),
                                               ("FONTSIZE", (0, 1), (-1, -1), 7.5)]))
    return table


def streak_text(streak: int | None) -> str:
    """The longest streak as the table says it (連n); "–" for a member who never dealt (as the page's member.js).

    >>> streak_text(2), streak_text(0), streak_text(None)
    ('2', '0', '–')
    """
    return "–" if streak is None else str(streak)


def rating_text(rating: float | None) -> str:
    """A rating as the sheet shows it: two decimals, "–" for a member with no closed evening (or a row without).

    >>> rating_text(2.5), rating_text(-0.47), rating_text(None)
    ('2.50', '-0.47', '–')
    """
    return "–" if rating is None else f"{rating:.2f}"


def _standings(report: GroupReport, styles: Styles, lang: str) -> list:
    if not report.standings:
        return [styles.para(word(lang, "sheet.group_no_evenings"))]
    days = {evening.id: evening.day for evening in report.evenings}
    widths = [22, NAME_WIDTH, 40, 26, 22, 24, 22, 26, 26, 32, 32, 86, 66, 24]
    rows = [[str(rank), styles.fitted(row["name"], NAME_WIDTH), labels.amount(row["net"]),
             rating_text(row.get("rating")), str(row["evenings"]),
             str(row["hands"]), str(row["wins"]), str(row["self_draws"]), str(row["deal_ins"]),
             percent(row["win_rate"]), percent(row["deal_in_rate"]),
             styles.fitted(averages_text(row["average_per_win"], lang), widths[11]),
             styles.fitted(biggest_text(row["biggest_hand"], days, lang), widths[12]),
             streak_text(row["longest_dealer_streak"])]
            for rank, row in enumerate(report.standings, start=1)]
    header = sentences.columns("sheet.group_standings_columns", lang)
    return [_grid(styles, header, rows, widths, range(2, 11)), Spacer(0, 3),
            styles.para(word(lang, "sheet.group_key"), styles.cell)]


def _balances(report: GroupReport, styles: Styles, lang: str):
    ranked = sorted(report.balances.items(), key=lambda item: (-item[1], item[0]))
    rows = [[styles.fitted(name, NAME_WIDTH * 1.3), labels.amount(balance)] for name, balance in ranked]
    if not rows:
        return styles.para("-")
    return _grid(styles, sentences.columns("sheet.group_balances_columns", lang), rows, [NAME_WIDTH * 1.3, 70],
                 range(1, 2))


def _transfers(report: GroupReport, styles: Styles, lang: str):
    if not report.transfers:
        return styles.para(word(lang, "card.square"))
    rows = [[styles.fitted(t["from"], NAME_WIDTH * 1.3), styles.fitted(t["to"], NAME_WIDTH * 1.3), str(t["amount"])]
            for t in report.transfers]
    header = [word(lang, key) for key in ("sheet.col_from", "sheet.col_to", "sheet.col_amount")]
    return _grid(styles, header, rows, [NAME_WIDTH * 1.3, NAME_WIDTH * 1.3, 70], range(2, 3))


def _evenings(report: GroupReport, styles: Styles, width: float, lang: str):
    if not report.evenings:
        return styles.para("-")
    fixed = [62, 120, 70, 30]
    totals_width = width - sum(fixed)
    rows = [[evening.day.isoformat(), styles.fitted(evening.name, fixed[1]),
             _rules_short(evening.ruleset, lang), str(evening.hands),
             styles.fitted(totals_text(evening.totals), totals_width)]
            for evening in report.by_day]
    return _grid(styles, sentences.columns("sheet.group_evenings_columns", lang), rows,
                 [*fixed, totals_width], range(3, 4))


def _rules_short(ruleset: str, lang: str) -> str:
    """A rule set's short name for the evenings table; its id when the words do not know it."""
    return table(lang).get(f"ruleset.short.{ruleset}", ruleset)


def percent(rate: float | None) -> str:
    """A rate to one place, "-" on no hand: rounded once, halves up, as format/numbers.js, so both say the same.

    >>> percent(1 / 22), percent(1 / 16), percent(1 / 3), percent(0.0), percent(None)
    ('4.5%', '6.3%', '33.3%', '0.0%', '-')
    """
    return "-" if rate is None else f"{math.floor(rate * 1000 + 0.5) / 10:.1f}%"


def averages_text(averages: Iterable[Mapping], lang: str = TRADITIONAL) -> str:
    """The average value per win by unit: "2.5台 (2) · 10.0分 (1)" (wins behind each in brackets).

    >>> averages_text([{"unit": "points", "average": 10.0, "wins": 1}, {"unit": "tai", "average": 2.5, "wins": 2}])
    '10.0分 (1) · 2.5台 (2)'
    """
    return " · ".join(f"{a['average']:.1f}{labels.unit_name(a['unit'], lang)} ({a['wins']})"
                      for a in averages) or "-"


def biggest_text(hand: Mapping | None, days: Mapping[str, datetime.date], lang: str = TRADITIONAL) -> str:
    """The biggest hand: its value and unit, the evening's day and the hand number: "10分 12-04 #2"."""
    if hand is None:
        return "-"
    day = days.get(hand["session"])
    where = day.strftime("%m-%d") if day else hand["session"]
    return f"{hand['value']}{labels.unit_name(hand['unit'], lang)} {where} #{hand['number']}"


def totals_text(totals: Mapping[str, int]) -> str:
    """"Amy +130, Ben +30, Cat -20": an evening's totals, best first (ties by name)."""
    return ", ".join(f"{name} {labels.amount(total)}"
                     for name, total in sorted(totals.items(), key=lambda item: (-item[1], item[0])))


def _page_header(report: GroupReport, font: str, lang: str):
    """The group name, the period and the page number atop every page."""
    return page_header(report.name, report.period_text(lang), font, lang)


# -- the CSVs ------------------------------------------------------------------

STANDINGS_COLUMNS = ("rank", "member", "name", "net", "evenings", "hands", "wins", "self_draws", "deal_ins",
                     "win_rate", "deal_in_rate", "average_tai", "tai_wins", "average_points", "points_wins",
                     "biggest_value", "biggest_unit", "biggest_session", "biggest_hand", "longest_dealer_streak",
                     "full_hands", "quick_hands", "rating")
BALANCES_COLUMNS = ("member", "name", "balance")
PAYMENTS_COLUMNS = ("id", "at", "from", "to", "amount", "note", "session", "void")


def standings_csv(rows: Iterable[Mapping]) -> bytes:
    """The standings, one row per member in rank order; the average per win in one column pair per unit."""
    table = []
    for rank, row in enumerate(rows, start=1):
        averages = {a["unit"]: a for a in row["average_per_win"]}
        biggest = row["biggest_hand"] or {}
        table.append([rank, row["member"], row["name"], row["net"], row["evenings"], row["hands"], row["wins"],
                      row["self_draws"], row["deal_ins"], _rate(row["win_rate"]), _rate(row["deal_in_rate"]),
                      *_average(averages.get("tai")), *_average(averages.get("points")),
                      biggest.get("value", ""), biggest.get("unit", ""), biggest.get("session", ""),
                      biggest.get("number", ""), _blank(row["longest_dealer_streak"]), row["full_hands"], row["quick_hands"],
                      _blank(row.get("rating"))])
    return _csv(STANDINGS_COLUMNS, table)


def balances_csv(members: Iterable[Mapping]) -> bytes:
    """Each member's open balance (`{"member", "name", "balance"}` rows, as the balances answer lists them)."""
    return _csv(BALANCES_COLUMNS, [[m["member"], m["name"], m["balance"]] for m in members])


def payments_csv(payments: Iterable[Mapping]) -> bytes:
    """Every payment as recorded (voided ones with `void` 1), `from` / `to` by current name."""
    return _csv(PAYMENTS_COLUMNS, [[p["id"], p["at"], p["from"], p["to"], p["amount"], p.get("note") or "",
                                    p.get("session") or "", int(bool(p.get("void")))] for p in payments])


def _average(average: Mapping | None) -> list:
    return ["", ""] if average is None else [average["average"], average["wins"]]


def _blank(value: object) -> object:
    return "" if value is None else value


def _rate(rate: float | None) -> object:
    """A rate to 4 places, rounded once from the exact fraction the standings give; "" without hands."""
    return "" if rate is None else round(rate, 4)


def _csv(columns: Sequence[str], rows: Iterable[Sequence]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(columns)
    writer.writerows([inert(cell) for cell in row] for row in rows)
    return buffer.getvalue().encode("utf-8-sig")
