"""A competition's reports: the table cards and the results sheet (PDF), the standings picture, the CSV.

A table card is an A4 page to lay on the table: its seats and winds, and the QR code of its scoring
link drawn as vector squares so that it prints sharp. The standings picture holds the first
``CARD_ROWS`` ranks only (800 entrants would make a picture no chat shows). Everything is drawn from
the standings as ``GET …/standings`` answers them: nothing here computes a place or a point.

The CSV's headers are the API's field names, in no language; points and shared places are decimals
(`2.33` for `7/3`: a spreadsheet reads `7/3` as a date); formula-like text is made inert
(``reports.csv.inert``).
"""
from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import segno
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, SimpleDocTemplate, Spacer, Table, TableStyle

from reports import labels, sentences
from reports.card import Card, CardRow
from reports.csv import inert
from reports.fonts import ReportFont
from reports.labels import table_word
from reports.pdf import MARGIN, PAGE_HEADER_GAP, page_header
from reports.styles import Styles, clipped
from words import TRADITIONAL, language, word

COLUMNS = ("rank", "entrant", "name", "points", "net", "withdrawn")
PER_ROUND = ("table", "wind", "opponents", "net", "place", "points", "status")
OPPONENTS_JOIN = " / "
QR_ERROR = "m"  # as the evening's share QR (api.page.routes.share_qr)
QR_SIZE = 90 * mm  # a phone reads it from a seat at the table
QR_BORDER = 4  # modules of quiet zone, as the QR standard asks
CARD_ROWS = 20  # ranks on the picture: 20 rows of 84 px keep it a phone screen or two (reports.card)
SEAT_NAME_SIZE, SEAT_WIND_SIZE, TABLE_SIZE = 22, 30, 44
NAME_WIDTH = 96  # the entrant column of the results sheet
STATE_WORDS = {"sheet": {True: "sheet.competition_final", False: "sheet.competition_so_far"},
               "card": {True: "card.competition_final", False: "card.competition_so_far"}}


# -- what the reports show ------------------------------------------------------


@dataclass(frozen=True)
class TableCard:
    """One table of a round: its number, its seats by wind (``("E", "Amy")``, …) and its scoring link."""

    table: int
    seats: tuple[tuple[str, str], ...]
    link: str


@dataclass(frozen=True)
class TableCards:
    """A round's table cards: ``ends_at`` is the round's end on the reader's clock ("21:30"), None before its
    clock starts (or when it has no minutes); ``local_only`` the links' origin when only the server's own
    computer opens it (127.0.0.1, localhost): each card then says so."""

    name: str
    round: int
    tables: tuple[TableCard, ...]
    ends_at: str | None = None
    local_only: str | None = None


@dataclass(frozen=True)
class ResultsSheet:
    """What the results sheet and the standings picture show: ``standings`` as ``GET …/standings`` gives them
    (best first), ``rounds`` the competition's, ``ended`` how many have ended, ``placement_points`` None when
    ranked by net money alone."""

    name: str
    ruleset: str
    rounds: int
    ended: int
    placement_points: tuple[int, ...] | None
    standings: Sequence[Mapping]
    made: datetime.date = field(default_factory=datetime.date.today)

    @property
    def final(self) -> bool:
        return self.ended == self.rounds

    def state_text(self, lang: str, where: str = "sheet") -> str:
        """Final, or how far it has gone, in `lang`.

        >>> ResultsSheet("Cup", "taiwan", 3, 1, (4, 2, 1, 0), []).state_text("en")
        'Standings so far: 1 of 3 rounds ended'
        >>> ResultsSheet("Cup", "taiwan", 3, 3, None, []).state_text("zh-Hant", "card")
        '最終排名：3 輪全部結束'
        """
        key = STATE_WORDS[where][self.final]
        return word(lang, key, rounds=self.rounds, ended=self.ended)

    def ranking_text(self, lang: str) -> str:
        """How the standings are ranked, the tie-breaks included, in ``lang``."""
        if self.placement_points is None:
            return word(lang, "sheet.competition_ranking_net")
        return word(lang, "sheet.competition_ranking_points", points="/".join(map(str, self.placement_points)))


# -- the table cards ------------------------------------------------------------


def render_table_cards(cards: TableCards, font: ReportFont, lang: str = TRADITIONAL) -> bytes:
    """One A4 page per table of ``cards``: every text in ``font`` (or its fallbacks), words in ``lang``."""
    lang = language(lang)
    styles = Styles.for_font(font.name, font.fallbacks)
    buffer = io.BytesIO()
    subtitle = word(lang, "sheet.table_card_round", name=cards.name, round=cards.round)
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN + PAGE_HEADER_GAP, bottomMargin=MARGIN, title=subtitle,
                            author="Taizhang 台帳", initialFontName=font.name)
    story = []
    for index, card in enumerate(cards.tables):
        if index:
            story.append(PageBreak())
        story += _table_card(cards, card, styles, doc.width, lang)
    if not story:
        story.append(styles.para(word(lang, "sheet.table_cards_none")))
    on_page = page_header(cards.name, word(lang, "sheet.table_card_round_short", round=cards.round), font.name,
                          lang)
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _table_card(cards: TableCards, card: TableCard, styles: Styles, width: float, lang: str) -> list:
    big = ParagraphStyle("table-number", parent=styles.title, fontSize=TABLE_SIZE, leading=TABLE_SIZE * 1.2,
                         alignment=1)
    centred = ParagraphStyle("table-centred", parent=styles.heading, alignment=1)
    hint = ParagraphStyle("table-hint", parent=styles.body, alignment=1)
    name_room = width - 70
    seats = Table([[styles.para(table_word(wind, lang), _sized(styles, SEAT_WIND_SIZE)),
                    styles.para(clipped(name, styles.font, SEAT_NAME_SIZE, name_room - 12, 2),
                                _sized(styles, SEAT_NAME_SIZE))]
                   for wind, name in card.seats], colWidths=[70, name_room], hAlign="CENTER")
    seats.setStyle(TableStyle(styles.grid(header_rows=0) + [("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                                                            ("TOPPADDING", (0, 0), (-1, -1), 6),
                                                            ("BOTTOMPADDING", (0, 0), (-1, -1), 8)]))
    flow = [styles.para(word(lang, "sheet.table_card_title", table=card.table), big),
            styles.para(clipped(word(lang, "sheet.table_card_round", name=cards.name, round=cards.round),
                                styles.font, centred.fontSize, width, 2), centred)]
    if cards.ends_at is not None:
        flow.append(styles.para(word(lang, "sheet.table_card_ends", time=cards.ends_at), centred))
    flow += [Spacer(0, 6 * mm), seats, Spacer(0, 8 * mm), qr_drawing(card.link, QR_SIZE), Spacer(0, 4 * mm)]
    if cards.local_only is not None:
        warning = ParagraphStyle("table-warning", parent=styles.heading, alignment=1, textColor="#b3261e")
        return flow + [styles.para(word(lang, "sheet.table_card_local_only", origin=cards.local_only), warning)]
    return flow + [styles.para(word(lang, "sheet.table_card_scan"), hint),
                   styles.para(word(lang, "sheet.table_card_keep"), hint)]


def _sized(styles: Styles, size: float) -> ParagraphStyle:
    return ParagraphStyle(f"seat{size}", parent=styles.body, fontSize=size, leading=size * 1.25)


def qr_drawing(link: str, size: float) -> Flowable:
    """The QR code of ``link`` as vector squares ``size`` points wide, quiet zone included (one square per run
    of dark modules in a row, all of them one filled path: a 250-page file stays small and quick to write)."""
    rows = list(segno.make(link, error=QR_ERROR).matrix_iter(border=QR_BORDER))
    runs = []
    for y, row in enumerate(rows):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append((start, y, x - start))
    return QrCode(runs, len(rows), size)


class QrCode(Flowable):
    """A QR code's dark runs ``(x, y, length)`` in modules, ``modules`` wide, drawn ``size`` points wide as one
    path of whole-module squares: a reportlab ``Drawing`` of one ``Rect`` per run set the colour and the line
    of every square anew, most of the time of a big field's cards."""

    def __init__(self, runs: list[tuple[int, int, int]], modules: int, size: float):
        super().__init__()
        self.modules, self.width, self.height = modules, size, size
        self.hAlign = "CENTER"
        self.path = " ".join(f"{x} {y} {length} 1 re" for x, y, length in runs)  # PDF operators, in modules

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        module = self.width / self.modules
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(colors.black)
        canvas.transform(module, 0, 0, -module, 0, self.height)  # one unit a module, rows from the top down
        if self.path:
            canvas.addLiteral(self.path + " f")
        canvas.restoreState()


# -- the results sheet ----------------------------------------------------------


def render_results_sheet(sheet: ResultsSheet, font: ReportFont, lang: str = TRADITIONAL) -> bytes:
    """The results sheet of ``sheet`` (A4 portrait), every text in ``font`` (or its fallbacks), words in ``lang``."""
    lang = language(lang)
    styles = Styles.for_font(font.name, font.fallbacks)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN + PAGE_HEADER_GAP, bottomMargin=MARGIN,
                            title=word(lang, "sheet.competition_title", name=sheet.name), author="Taizhang 台帳",
                            initialFontName=font.name)
    on_page = page_header(sheet.name, sheet.made.isoformat(), font.name, lang)
    story = [styles.para(word(lang, "sheet.competition_title", name=sheet.name), styles.title),
             styles.para(sheet.state_text(lang), styles.heading),
             styles.para(word(lang, "sheet.competition_facts", ruleset=sentences.ruleset_name(sheet.ruleset, lang),
                              entrants=len(sheet.standings), made=sheet.made.isoformat())),
             Spacer(0, 3), styles.para(sheet.ranking_text(lang)),
             styles.para(word(lang, "sheet.competition_standings"), styles.heading),
             _standings_table(sheet, styles, doc.width, lang)]
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _standings_table(sheet: ResultsSheet, styles: Styles, width: float, lang: str):
    if not sheet.standings:
        return styles.para(word(lang, "sheet.competition_nobody"))
    fixed = [26, NAME_WIDTH, 36, 44, 22, 24, 22, 44, 36]
    opponents_width = width - sum(fixed)
    widths = [*fixed[:7], opponents_width, *fixed[7:]]
    header = [styles.name_cell(text, w) for text, w in zip(sentences.columns("sheet.competition_columns", lang),
                                                            widths)]
    rows, firsts = [header], []
    for row in sheet.standings:
        name = row["name"] + (word(lang, "sheet.competition_withdrawn") if row["withdrawn"] else "")
        entrant = [str(row["rank"]), styles.fitted(name, NAME_WIDTH), labels.decimal(row["points_exact"]),
                   labels.amount(row["net"])]
        firsts.append(len(rows))
        for index, line in enumerate(row["rounds"] or [None]):
            rows.append((entrant if index == 0 else ["", "", "", ""]) + _round_cells(line, styles, opponents_width,
                                                                                     lang))
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(styles.grid() + [("FONTSIZE", (0, 1), (-1, -1), 7.5),
                                               ("ALIGN", (2, 1), (3, -1), "RIGHT"),
                                               ("ALIGN", (8, 1), (9, -1), "RIGHT"),
                                               ("GRID", (0, 1), (-1, -1), 0.2, "#dddddd")]
                              + [("LINEABOVE", (0, first), (-1, first), 0.8, "#555555") for first in firsts]))
    return table


def _round_cells(line: Mapping | None, styles: Styles, width: float, lang: str) -> list:
    """Round, table, wind, opponents, net, points of one round of an entrant (or dashes: no round yet)."""
    if line is None:
        return ["–", "", "", "", "", ""]
    number = str(line["round"])
    if line["sat_out"]:
        return [number, "", "", styles.fitted(word(lang, "sheet.competition_sat_out"), width), "", "0"]
    opponents = styles.fitted(", ".join(line["opponents"]), width)
    if not line["played"]:
        return [number, str(line["table"]), table_word(line["wind"], lang), opponents,
                word(lang, "sheet.competition_not_played"), ""]
    return [number, str(line["table"]), table_word(line["wind"], lang), opponents, labels.amount(line["net"]),
            labels.decimal(line["points_exact"])]


# -- the standings picture ------------------------------------------------------


def standings_card(sheet: ResultsSheet, lang: str) -> Card:
    """The first ``CARD_ROWS`` of the standings as a picture: rank and name, points, net money."""
    lang = language(lang)
    shown = sheet.standings[:CARD_ROWS]
    more = len(sheet.standings) - len(shown)
    points = sheet.placement_points is not None
    return Card(
        title=sheet.name,
        subtitles=(sheet.state_text(lang, "card"), word(lang, "card.competition_entrants",
                                                        count=len(sheet.standings)),
                   word(lang, "card.competition_ranked_points" if points else "card.competition_ranked_net")),
        rows_heading=word(lang, "card.competition_standings" if points else "card.competition_standings_net"),
        rows=tuple(CardRow(f"{row['rank']}. {row['name']}"
                           + (word(lang, "card.competition_withdrawn") if row["withdrawn"] else ""), row["net"],
                           detail=points_words(lang, row["points_exact"]) if points else "")
                   for row in shown),
        no_rows=word(lang, "sheet.competition_nobody"),
        rows_note=word(lang, "card.competition_more", count=more) if more else "",
    )


def points_words(lang: str, exact: str) -> str:
    """"1 pt", "1.5 pts", "4 分": an entrant's points on the picture, as a decimal.

    >>> points_words("en", "1"), points_words("en", "3/2"), points_words("zh-Hant", "13/2")
    ('1 pt', '1.5 pts', '6.5 分')
    """
    shown = labels.decimal(exact)
    return word(lang, "card.competition_point_one" if shown == "1" else "card.competition_points", points=shown)


# -- the CSV ---------------------------------------------------------------------


def standings_csv(rows: Iterable[Mapping], rounds: int) -> bytes:
    """The standings (rows as ``GET …/standings`` gives them) over ``rounds`` rounds drawn.

    >>> row = {"rank": 1, "entrant": 3, "name": "=Amy", "points_exact": "7/3", "net": 100, "withdrawn": False,
    ...        "rounds": [{"round": 1, "table": 2, "wind": "S", "opponents": ["Ben", "Cat", "Dan"], "net": 100,
    ...                    "place": "5/3", "points_exact": "7/3", "played": True, "sat_out": False},
    ...                   {"round": 2, "table": None, "wind": None, "opponents": [], "net": 0, "place": None,
    ...                    "points_exact": "0", "played": False, "sat_out": True}]}
    >>> for line in standings_csv([row], 2).decode("utf-8-sig").splitlines(): print(line)
    rank,entrant,name,points,net,withdrawn,round_1_table,round_1_wind,round_1_opponents,round_1_net,round_1_place,round_1_points,round_1_status,round_2_table,round_2_wind,round_2_opponents,round_2_net,round_2_place,round_2_points,round_2_status
    1,3,'=Amy,2.33,100,0,2,S,Ben / Cat / Dan,100,1.67,2.33,played,,,,,,,sat_out
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*COLUMNS, *(f"round_{n}_{what}" for n in range(1, rounds + 1) for what in PER_ROUND)])
    for row in rows:
        by_round = {line["round"]: line for line in row["rounds"]}
        cells = [row["rank"], row["entrant"], row["name"], labels.decimal(row["points_exact"]), row["net"],
                 int(row["withdrawn"])]
        for number in range(1, rounds + 1):
            cells += _round_csv(by_round.get(number))
        writer.writerow([inert(cell) for cell in cells])
    return buffer.getvalue().encode("utf-8-sig")


def _round_csv(line: Mapping | None) -> list:
    if line is None:
        return [""] * len(PER_ROUND)
    if line["sat_out"]:
        return ["", "", "", "", "", "", "sat_out"]
    if not line["played"]:
        return [line["table"], line["wind"], OPPONENTS_JOIN.join(line["opponents"]), "", "", "", "not_played"]
    return [line["table"], line["wind"], OPPONENTS_JOIN.join(line["opponents"]), line["net"],
            labels.decimal(line["place"]), labels.decimal(line["points_exact"]), "played"]
