"""The settlement card (結算圖): the evening as a phone-shaped PNG for LINE and WeChat.

Chat apps show a picture where they would only link a PDF: one image 1080 px wide and at least 1920
tall (9:16). `render_card` draws any `Card` (title lines, rows of a name and an amount, transfers with
notes, a chart); `session_card` makes an evening's, `reports.group_card` a group's. Text falls back
character by character to the PDF's fonts (`reports.fonts.glyph_runs`).
"""
from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from ledger.settlement import Transfer
from reports import labels
from reports.chart import bitmap, colour_hex, line_chart
from reports.fonts import ReportFont, fallback_fonts, glyph_runs, parse_font_spec
from reports.styles import ELLIPSIS
from reports.model import Report
from reports.sentences import ruleset_name
from words import TRADITIONAL, language, word

log = logging.getLogger(__name__)

WIDTH = 1080
MIN_HEIGHT = 1920  # 9:16, a phone screen: a shorter card would sit small in the chat
MARGIN = 72
CONTENT = WIDTH - 2 * MARGIN
TITLE_SIZE, SUBTITLE_SIZE, HEADING_SIZE, ROW_SIZE, SMALL_SIZE = 68, 38, 42, 46, 30
ROW_HEIGHT = 84
SECTION_GAP = 56
CHART_HEIGHT = 420
CHART_SCALE = 3  # pixels to the chart's point: its labels as large as the card's small text
AMOUNT_WIDTH = 280  # the right-hand column of amounts
SWATCH = 26  # the colour dot before a name: the chart's line of that player
ARROW = "→"

BAND = "#0f5132"  # the page's theme colour
ON_BAND = "#ffffff"
ON_BAND_MUTED = "#cfe3d6"
PAPER = "#ffffff"
INK = "#1c1c1c"
MUTED = "#5f6368"
RULE = "#dadce0"
WON = "#146c2e"
PAID = "#b3261e"


@dataclass(frozen=True)
class CardRow:
    """One line of the totals: a name, an amount, and the colour of its line in the chart (no dot without one);
    a ``detail`` right-aligned before the amount, in its own column."""

    name: str
    amount: int
    colour: str | None = None
    detail: str = ""  # before the amount, e.g. a competition's points (reports.competition)


@dataclass(frozen=True)
class Card:
    """Everything a card shows, every text already in the reader's language; without `transfers_heading` no
    transfers section (a group's standings)."""

    title: str
    subtitles: tuple[str, ...]
    rows_heading: str
    rows: tuple[CardRow, ...]
    no_rows: str = ""
    rows_note: str = ""  # under the rows, e.g. how many more a competition's sheet lists
    transfers_heading: str | None = None
    transfers: tuple[Transfer, ...] = ()
    no_transfers: str = ""
    notes: tuple[str, ...] = ()  # under the transfers, e.g. how the totals were rounded
    chart_heading: str | None = None
    series: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (name, running totals) per line, coloured in order
    footer: str = word(TRADITIONAL, "sheet.brand")  # the sheets' brand, in every language


def session_card(report: Report, lang: str) -> Card:
    """The card of one evening: totals as the settlement gives them (rounded when asked), largest first."""
    lang = language(lang)
    header, settlement = report.header, report.settlement
    colours = {player: colour_hex(index) for index, player in enumerate(report.participants)}
    ranked = sorted(report.participants, key=lambda player: (-settlement.totals[player], player))
    rounding = settlement.rounding
    return Card(
        title=header.name,
        subtitles=(header.date.isoformat(), ruleset_name(header.ruleset, lang),
                   f"{labels.stakes_text(header, lang, 'card')} · "
                   f"{word(lang, 'hand.played', played=len(report.played))}"),
        rows_heading=word(lang, "card.totals"),
        rows=tuple(CardRow(player, settlement.totals[player], colours[player]) for player in ranked),
        transfers_heading=word(lang, "card.transfers"),
        transfers=tuple(settlement.transfers),
        no_transfers=word(lang, "card.square"),
        notes=() if rounding is None else (word(lang, "card.rounded", round_to=rounding.round_to),),
        chart_heading=word(lang, "hand.running_totals"),
        series=tuple((player, tuple(totals)) for player, totals in report.running_totals().items()),
    )


class CardFonts:
    """The report font and its fallbacks as Pillow fonts, by size; text drawn run by run in the font that has it."""

    def __init__(self, font: ReportFont):
        faces = [font, *fallback_fonts()] if font.embedded else []
        if not faces:
            log.warning("No TrueType CJK font for the card (set REPORT_FONT or install fonts-wqy-zenhei): "
                        "Chinese text will be missing from the picture.")
        self._names = [face.name for face in faces]
        self._files = {face.name: parse_font_spec(face.source) for face in faces}

    def runs(self, text: str, size: int) -> list[tuple[ImageFont.FreeTypeFont, str]]:
        if not self._names:
            return [(ImageFont.load_default(size), text)]
        return [(_pillow_font(*self._files[name], size), run) for name, run in glyph_runs(text, self._names)]

    def width(self, text: str, size: int) -> float:
        return sum(font.getlength(run) for font, run in self.runs(text, size))

    def fit(self, text: str, size: int, room: float) -> str:
        """`text`, cut with an ellipsis if need be, so that it is at most `room` wide."""
        if self.width(text, size) <= room:
            return text
        while text and self.width(text + ELLIPSIS, size) > room:
            text = text[:-1]
        return text + ELLIPSIS

    def draw(self, draw: ImageDraw.ImageDraw, x: float, baseline: float, text: str, size: int, fill: str,
             right: bool = False) -> None:
        """`text` on `baseline`, starting at `x` (ending there when `right`)."""
        if right:
            x -= self.width(text, size)
        for font, run in self.runs(text, size):
            draw.text((x, baseline), run, font=font, fill=fill, anchor="ls")
            x += font.getlength(run)


@lru_cache(maxsize=64)
def _pillow_font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, index=index)


def render_card(card: Card, font: ReportFont) -> bytes:
    """The PNG of `card`: `WIDTH` wide, as tall as it needs and at least `MIN_HEIGHT`."""
    fonts = CardFonts(font)
    image = Image.new("RGB", (WIDTH, _height(card)), PAPER)
    draw = ImageDraw.Draw(image)
    y = _title_band(draw, fonts, card)
    y = _rows(draw, fonts, card, y + SECTION_GAP)
    if card.transfers_heading:
        y = _transfers(draw, fonts, card, y + SECTION_GAP)
    if card.series and card.chart_heading:
        _chart(image, draw, fonts, card, font, y + SECTION_GAP)
    fonts.draw(draw, MARGIN, image.height - MARGIN // 2, card.footer, SMALL_SIZE, MUTED)
    out = io.BytesIO()
    # zlib's default level, not `optimize`: a card answered several times sooner for a few % more bytes.
    image.save(out, format="PNG")
    return out.getvalue()


def _band_height(card: Card) -> int:
    return MARGIN + int(TITLE_SIZE * 1.3) + len(card.subtitles) * int(SUBTITLE_SIZE * 1.5) + MARGIN // 2


def _section_height(rows: int) -> int:
    return int(HEADING_SIZE * 1.6) + max(rows, 1) * ROW_HEIGHT


def _height(card: Card) -> int:
    height = _band_height(card) + SECTION_GAP + _section_height(len(card.rows)) + bool(card.rows_note) * ROW_HEIGHT
    if card.transfers_heading:
        height += SECTION_GAP + _section_height(len(card.transfers)) + len(card.notes) * ROW_HEIGHT
    if card.series and card.chart_heading:
        height += SECTION_GAP + int(HEADING_SIZE * 1.6) + CHART_HEIGHT
    return max(MIN_HEIGHT, height + 2 * MARGIN)


def _title_band(draw, fonts: CardFonts, card: Card) -> int:
    bottom = _band_height(card)
    draw.rectangle((0, 0, WIDTH, bottom), fill=BAND)
    y = MARGIN + TITLE_SIZE
    fonts.draw(draw, MARGIN, y, fonts.fit(card.title, TITLE_SIZE, CONTENT), TITLE_SIZE, ON_BAND)
    y += int(TITLE_SIZE * 0.3)
    for line in card.subtitles:
        y += int(SUBTITLE_SIZE * 1.5)
        fonts.draw(draw, MARGIN, y, fonts.fit(line, SUBTITLE_SIZE, CONTENT), SUBTITLE_SIZE, ON_BAND_MUTED)
    return bottom


def _heading(draw, fonts: CardFonts, text: str, y: int) -> int:
    fonts.draw(draw, MARGIN, y + HEADING_SIZE, text, HEADING_SIZE, BAND)
    return y + int(HEADING_SIZE * 1.6)


def _row_baseline(top: int) -> int:
    return top + ROW_HEIGHT // 2 + ROW_SIZE * 2 // 5


def _rule(draw, y: int) -> None:
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=2)


def _rows(draw, fonts: CardFonts, card: Card, y: int) -> int:
    y = _heading(draw, fonts, card.rows_heading, y)
    if not card.rows:
        fonts.draw(draw, MARGIN, _row_baseline(y), card.no_rows, ROW_SIZE, MUTED)
        y += ROW_HEIGHT
    name_x = MARGIN + SWATCH + 24
    detail_right = WIDTH - MARGIN - AMOUNT_WIDTH
    detail_room = max((fonts.width(row.detail, ROW_SIZE) for row in card.rows if row.detail), default=0)
    for row in card.rows:
        middle = y + ROW_HEIGHT // 2
        if row.colour:
            draw.ellipse((MARGIN, middle - SWATCH // 2, MARGIN + SWATCH, middle + SWATCH // 2), fill=row.colour)
        name_room = detail_right - name_x - (detail_room + 24 if detail_room else 0)
        fonts.draw(draw, name_x, _row_baseline(y), fonts.fit(row.name, ROW_SIZE, name_room), ROW_SIZE, INK)
        if row.detail:
            fonts.draw(draw, detail_right, _row_baseline(y), row.detail, ROW_SIZE, MUTED, right=True)
        colour = WON if row.amount > 0 else PAID if row.amount < 0 else MUTED
        fonts.draw(draw, WIDTH - MARGIN, _row_baseline(y), labels.amount(row.amount), ROW_SIZE, colour, right=True)
        y += ROW_HEIGHT
        _rule(draw, y)
    if card.rows_note:
        fonts.draw(draw, MARGIN, _row_baseline(y), fonts.fit(card.rows_note, SMALL_SIZE, CONTENT), SMALL_SIZE, MUTED)
        y += ROW_HEIGHT
    return y


def _transfers(draw, fonts: CardFonts, card: Card, y: int) -> int:
    y = _heading(draw, fonts, card.transfers_heading, y)
    if not card.transfers:
        fonts.draw(draw, MARGIN, _row_baseline(y), card.no_transfers, ROW_SIZE, MUTED)
        y += ROW_HEIGHT
    arrow_width = fonts.width(f" {ARROW} ", ROW_SIZE)
    room = (CONTENT - AMOUNT_WIDTH - arrow_width) / 2
    for transfer in card.transfers:
        baseline = _row_baseline(y)
        payer = fonts.fit(transfer.frm, ROW_SIZE, room)
        fonts.draw(draw, MARGIN, baseline, payer, ROW_SIZE, INK)
        x = MARGIN + fonts.width(payer, ROW_SIZE)
        fonts.draw(draw, x, baseline, f" {ARROW} ", ROW_SIZE, MUTED)
        fonts.draw(draw, x + arrow_width, baseline, fonts.fit(transfer.to, ROW_SIZE, room), ROW_SIZE, INK)
        fonts.draw(draw, WIDTH - MARGIN, baseline, str(transfer.amount), ROW_SIZE, INK, right=True)
        y += ROW_HEIGHT
        _rule(draw, y)
    for note in card.notes:
        fonts.draw(draw, MARGIN, _row_baseline(y), fonts.fit(note, SMALL_SIZE, CONTENT), SMALL_SIZE, MUTED)
        y += ROW_HEIGHT
    return y


def _chart(image: Image.Image, draw, fonts: CardFonts, card: Card, font: ReportFont, y: int) -> None:
    """The chart of `reports.chart`, drawn by reportlab at `CHART_SCALE` pixels to the point, under its heading."""
    y = _heading(draw, fonts, card.chart_heading, y)
    drawing = line_chart(dict(card.series), font.name, CONTENT / CHART_SCALE, CHART_HEIGHT / CHART_SCALE,
                         SMALL_SIZE / CHART_SCALE)
    image.paste(bitmap(drawing, CHART_SCALE), (MARGIN, y))
