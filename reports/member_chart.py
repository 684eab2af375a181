"""A member's season (個人走勢): cumulative net money over the group's evenings, and the rating under it.

Two reportlab line plots on one x axis, the member's evenings in order (1, 2, …): money above, the rating
(μ − 3σ, ``ledger.ratings``) after each rated evening below, where the member has one. Each panel is named
by its heading and drawn in its own colour and dash from Okabe and Ito's palette (told apart by colour-blind
readers, and by the dash alone). renderPM rasterises the drawing, as the evening's chart.
"""
from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.chart import INK, MUTED, PALETTE_HEX, bitmap
from words import word

NET_COLOUR, RATING_COLOUR = (colors.HexColor(code) for code in PALETTE_HEX[:2])  # Okabe–Ito, as the evening's chart
RULE = colors.HexColor("#dadce0")
WIDTH, HEIGHT, MARGIN, SCALE = 360, 420, 16, 3  # points; SCALE pixels to the point: 1080 px wide
AXIS_ROOM = 34  # the y axis labels, left of the plots
MAX_TICKS = 8


def member_picture(name: str, subtitle: str, series: Sequence[int], ratings: Sequence[tuple[int, float]],
                   lang: str, font: str) -> bytes:
    """The PNG: ``series`` the cumulative net after each evening; ``ratings`` (evening's place from 1, rating)."""
    drawing = Drawing(WIDTH, HEIGHT, initialFontName=font)
    top = HEIGHT - MARGIN
    drawing.add(String(MARGIN, top - 16, _fit(name, font, 16), fontName=font, fontSize=16, fillColor=INK))
    drawing.add(String(MARGIN, top - 32, _fit(subtitle, font, 9), fontName=font, fontSize=9, fillColor=MUTED))
    evenings = max(len(series), 1)
    net_points = [(place, value) for place, value in enumerate(series, start=1)]
    _panel(drawing, word(lang, "card.member_net"), net_points, evenings, NET_COLOUR, None, font, top - 60, 170,
           word(lang, "card.member_no_evenings"))
    heading = word(lang, "card.member_rating") + (f" {ratings[-1][1]:.2f}" if ratings else "")
    _panel(drawing, heading, list(ratings), evenings, RATING_COLOUR, (4, 2), font, top - 270, 110,
           word(lang, "card.member_unrated"))
    out = io.BytesIO()
    bitmap(drawing, SCALE).save(out, format="PNG")
    return out.getvalue()


def _panel(drawing: Drawing, heading: str, points: list, evenings: int, colour, dash, font: str, top: float,
           height: float, empty: str) -> None:
    """One plot under its heading (and a sentence instead when it has no point)."""
    drawing.add(String(MARGIN, top, _fit(heading, font, 11), fontName=font, fontSize=11, fillColor=colour))
    bottom = top - 14 - height
    if not points:
        drawing.add(Line(MARGIN, bottom + height / 2, WIDTH - MARGIN, bottom + height / 2, strokeColor=RULE))
        drawing.add(String(WIDTH / 2, bottom + height / 2 + 6, empty, fontName=font, fontSize=9, fillColor=MUTED,
                           textAnchor="middle"))
        return
    plot = LinePlot()
    plot.x, plot.y = MARGIN + AXIS_ROOM, bottom + 14
    plot.width, plot.height = WIDTH - 2 * MARGIN - AXIS_ROOM, height - 14
    plot.data = [points]
    line = plot.lines[0]
    line.strokeColor, line.strokeWidth, line.strokeDashArray = colour, 1.6, dash
    line.symbol = makeMarker("FilledCircle", size=3.5, fillColor=colour, strokeColor=colour)
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize, axis.labels.fillColor = font, 8, MUTED
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 1, max(evenings, 2)
    plot.xValueAxis.valueStep = max(1, -(-evenings // MAX_TICKS))  # whole evenings, never a tick at 1.5
    plot.xValueAxis.labelTextFormat = "%d"
    values = [value for _, value in points]
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = min(values + [0]), max(values + [0]) or 1
    drawing.add(plot)


def _fit(text: str, font: str, size: float) -> str:
    """``text`` cut with … to fit the drawing's width."""
    room = WIDTH - 2 * MARGIN
    if stringWidth(text, font, size) <= room:
        return text
    while text and stringWidth(text + "…", font, size) > room:
        text = text[:-1]
    return text + "…"
