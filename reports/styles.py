"""Paragraph and table styles of the PDF, all in the one embedded report font (never reportlab's Helvetica)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from reports.fonts import glyph_runs

GRID = colors.HexColor("#9a9a9a")
HEADER_FILL = colors.HexColor("#e4e4e4")
STRIPE_FILL = colors.HexColor("#f6f6f6")
VOID_TEXT = colors.HexColor("#8a8a8a")
CELL_PADDING = 6  # reportlab's default left and right cell padding
MAX_CELL_LINES = 6  # a longer text is cut, with an ellipsis, to what this many lines hold
ELLIPSIS = "…"


def clipped(text: str, font: str, size: float, width: float, lines: int = 1) -> str:
    """``text``, cut short with an ellipsis if need be, so that it wraps to at most ``lines`` lines ``width`` wide.

    Wrapped character by character, a line wastes at most one CJK character (``size``), so what is at most
    ``lines × (width − size)`` wide fits. A cell taller than the page is a reportlab ``LayoutError``.
    In Helvetica at 10 pt, 3 lines of 100 hold 270 less 10 for the ellipsis: 38 A's (0.667 em each).

    >>> clipped("A" * 262, "Helvetica", 10, 100, lines=3) == "A" * 38 + "…"
    True
    >>> clipped("A" * 262, "Helvetica", 10, 100) == "A" * 13 + "…"
    True
    >>> clipped("Amy", "Helvetica", 10, 100)
    'Amy'
    """
    budget = lines * (width - size) if lines > 1 else width
    if stringWidth(text, font, size) <= budget:
        return text
    budget -= stringWidth(ELLIPSIS, font, size)
    kept = 0
    used = 0.0
    for character in text:
        used += stringWidth(character, font, size)
        if used > budget:
            break
        kept += 1
    return text[:kept] + ELLIPSIS


MIN_NAME_SIZE = 4.5  # the smallest type of a long name in a narrow column


def _wrapping(style: ParagraphStyle, text: str) -> ParagraphStyle:
    """`style` for `text`: CJK wrap (break anywhere) when it has CJK, else between words (a Latin name kept whole)."""
    if style.wordWrap != "CJK" or any(_is_cjk(char) for char in text):
        return style
    return _latin(style)


def _is_cjk(char: str) -> bool:
    """CJK ideographs, kana, hangul and full-width forms (not emoji, which break like letters)."""
    return "\u2e80" <= char <= "\ua4cf" or "\uac00" <= char <= "\ud7af" or "\uf900" <= char <= "\ufaff" or (
        "\uff00" <= char <= "\uffef") or char >= "\U00020000"


@lru_cache(maxsize=64)
def _latin(style: ParagraphStyle) -> ParagraphStyle:
    return ParagraphStyle(f"{style.name}-latin", parent=style, wordWrap=None)


@dataclass(frozen=True)
class Styles:
    """The styles of one report, built for its font."""

    font: str
    fallbacks: tuple[str, ...]
    title: ParagraphStyle
    heading: ParagraphStyle
    body: ParagraphStyle
    cell: ParagraphStyle
    void_cell: ParagraphStyle

    @classmethod
    def for_font(cls, font: str, fallbacks: tuple[str, ...] = ()) -> Styles:
        """Styles whose every text is in `font` (what it lacks in `fallbacks`); CJK word wrap everywhere."""
        body = ParagraphStyle("body", fontName=font, fontSize=9, leading=12, wordWrap="CJK")
        cell = ParagraphStyle("cell", parent=body, fontSize=7.5, leading=9)
        return cls(
            font=font,
            fallbacks=fallbacks,
            title=ParagraphStyle("title", parent=body, fontSize=16, leading=20, spaceAfter=4),
            heading=ParagraphStyle("heading", parent=body, fontSize=11, leading=14, spaceBefore=10, spaceAfter=4),
            body=body,
            cell=cell,
            void_cell=ParagraphStyle("void_cell", parent=cell, textColor=VOID_TEXT),
        )

    def markup(self, text: str) -> str:
        """`text` escaped, with what the report font lacks (an emoji) in a fallback font."""
        if not self.fallbacks or text.isascii():
            return escape(text)
        return "".join(escape(run) if font == self.font else f'<font name="{font}">{escape(run)}</font>'
                       for font, run in glyph_runs(text, (self.font, *self.fallbacks)))

    def para(self, text: str, style: ParagraphStyle | None = None) -> Paragraph:
        """A Paragraph of plain `text` (markup characters escaped)."""
        return Paragraph(self.markup(text), _wrapping(style or self.body, text))

    def cell_para(self, text: str, void: bool = False, width: float | None = None) -> Paragraph:
        """A table cell that wraps (to at most ``MAX_CELL_LINES`` lines of a column ``width`` wide, if given);
        a voided hand's cell is grey and struck out."""
        if width is not None:
            text = clipped(text, self.font, self.cell.fontSize, width - 2 * CELL_PADDING, MAX_CELL_LINES)
        if void:
            return Paragraph(f"<strike>{self.markup(text)}</strike>", _wrapping(self.void_cell, text))
        return Paragraph(self.markup(text), _wrapping(self.cell, text))

    def drawable(self, text: str) -> bool:
        """Whether the report font alone draws every character of `text`."""
        if text.isascii() or not self.fallbacks:
            return True
        return all(font == self.font for font, _ in glyph_runs(text, (self.font, *self.fallbacks)))

    def fitted(self, text: str, width: float, void: bool = False) -> str | Paragraph:
        """`text` as a plain cell (faster to draw) when it fits one line `width` wide, else a Paragraph."""
        if (not void and stringWidth(text, self.font, self.cell.fontSize) <= width - 2 * CELL_PADDING
                and self.drawable(text)):
            return text
        return self.cell_para(text, void, width)

    def fits_words(self, text: str, width: float) -> bool:
        """Whether every word of `text` fits on a line of a cell `width` wide."""
        return all(stringWidth(part, self.font, self.cell.fontSize) <= width - 2 * CELL_PADDING
                   for part in text.split())

    def name_cell(self, name: str, width: float, padding: float = CELL_PADDING, void: bool = False) -> Paragraph:
        """A name in a narrow cell: smaller type until its longest word fits, then cut to ``MAX_CELL_LINES`` lines."""
        name = clipped(name, self.font, MIN_NAME_SIZE, width - 2 * padding, MAX_CELL_LINES)
        longest = max(name.split() or [name], key=lambda part: stringWidth(part, self.font, self.cell.fontSize))
        wide = stringWidth(longest, self.font, self.cell.fontSize)
        size = self.cell.fontSize
        room = width - 2 * padding - 1  # a point to spare: the paragraph measures a little wider
        if wide > room:
            size = max(MIN_NAME_SIZE, self.cell.fontSize * room / wide)
        parent = self.void_cell if void else self.cell
        style = ParagraphStyle(f"name{size:.2f}{'-void' if void else ''}", parent=parent, fontSize=size,
                               leading=size + 1.5, wordWrap=None)
        return Paragraph(f"<strike>{self.markup(name)}</strike>" if void else self.markup(name), style)

    def grid(self, header_rows: int = 1) -> list[tuple]:
        """The TableStyle commands shared by every table: font, grid, shaded header."""
        return [
            ("FONTNAME", (0, 0), (-1, -1), self.font),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("GRID", (0, 0), (-1, -1), 0.4, GRID),
            *([("BACKGROUND", (0, 0), (-1, header_rows - 1), HEADER_FILL)] if header_rows else []),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
