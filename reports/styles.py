"""Paragraph and table styles of the PDF, all in the one report font.

Every text uses the report font (`reports.fonts`), so the only font in the
PDF is the embedded CJK font: reportlab's default Helvetica never appears.
"""
from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

GRID = colors.HexColor("#9a9a9a")
HEADER_FILL = colors.HexColor("#e4e4e4")
STRIPE_FILL = colors.HexColor("#f6f6f6")
VOID_TEXT = colors.HexColor("#8a8a8a")
CELL_PADDING = 6  # reportlab's default left and right cell padding


@dataclass(frozen=True)
class Styles:
    """The styles of one report, built for its font."""

    font: str
    title: ParagraphStyle
    heading: ParagraphStyle
    body: ParagraphStyle
    cell: ParagraphStyle
    void_cell: ParagraphStyle

    @classmethod
    def for_font(cls, font: str) -> Styles:
        """Styles whose every text is in `font`; CJK word wrap everywhere."""
        body = ParagraphStyle("body", fontName=font, fontSize=9, leading=12, wordWrap="CJK")
        cell = ParagraphStyle("cell", parent=body, fontSize=7.5, leading=9)
        return cls(
            font=font,
            title=ParagraphStyle("title", parent=body, fontSize=16, leading=20, spaceAfter=4),
            heading=ParagraphStyle("heading", parent=body, fontSize=11, leading=14, spaceBefore=10, spaceAfter=4),
            body=body,
            cell=cell,
            void_cell=ParagraphStyle("void_cell", parent=cell, textColor=VOID_TEXT),
        )

    def para(self, text: str, style: ParagraphStyle | None = None) -> Paragraph:
        """A Paragraph of plain `text` (markup characters escaped)."""
        return Paragraph(escape(text), style or self.body)

    def cell_para(self, text: str, void: bool = False) -> Paragraph:
        """A table cell that wraps; a voided hand's cell is grey and struck out."""
        if void:
            return Paragraph(f"<strike>{escape(text)}</strike>", self.void_cell)
        return Paragraph(escape(text), self.cell)

    def fitted(self, text: str, width: float, void: bool = False) -> str | Paragraph:
        """`text` as a plain cell when it fits on one line `width` wide, else a wrapping Paragraph.

        Plain cells draw several times faster; a voided hand's cell is always
        a Paragraph, to be struck out.
        """
        if not void and stringWidth(text, self.font, self.cell.fontSize) <= width - 2 * CELL_PADDING:
            return text
        return self.cell_para(text, void)

    def grid(self, header_rows: int = 1) -> list[tuple]:
        """The TableStyle commands shared by every table: font, grid, shaded header."""
        return [
            ("FONTNAME", (0, 0), (-1, -1), self.font),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("GRID", (0, 0), (-1, -1), 0.4, GRID),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), HEADER_FILL),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
