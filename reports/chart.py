"""The running-total chart (走勢圖): each participant's total after every played hand; `line_chart` draws any.

x is the count of played hands (0 = the start), y the running total; a
voided hand leaves no point. Each line ends in its player's name, so that
nobody has to tell colours apart: the colours are Okabe and Ito's, made for
colour-blind readers, and the same in the PDF, the pictures and the page
(api/page/static/app/js/parts/chart.js, held equal by tests/reports/test_chart.py).
reportlab's graphics draw it for the PDF and, through renderPM, for the PNGs.
"""
from __future__ import annotations

import io
import sys
from collections.abc import Mapping, Sequence

from PIL import Image
from reportlab.graphics import renderPM
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Group, Line, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.fonts import ReportFont
from reports.model import Report
from reports.styles import ELLIPSIS
from words import word

# Okabe & Ito's palette without its yellow, which a white page hides; past it the colours come round dashed.
PALETTE_HEX = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
INK = colors.HexColor("#1c1c1c")
MUTED = colors.HexColor("#5f6368")
HEIGHT = 190
FONT_SIZE = 7.5
MAX_TICKS = 10
LEADER = 6  # the coloured stroke from a line's end to its name
NAME_SHARE = 0.3  # names at the line ends take at most this part of the width; longer ones are cut


def colour_hex(index: int) -> str:
    """The colour of the `index`-th line (and its player's dot on the card)."""
    return PALETTE_HEX[index % len(PALETTE_HEX)]


def running_total_chart(report: Report, font: str, width: float) -> Drawing:
    """A line per participant; every label in `font` (no Helvetica in the PDF)."""
    return line_chart(report.running_totals(), font, width)


def line_chart(series: Mapping[str, Sequence[int]], font: str, width: float, height: float = HEIGHT,
               font_size: float = FONT_SIZE) -> Drawing:
    """A line per name (x: 0, 1, 2, ... for the values in order), its name at its end; every label in `font`.

    Every series has the same number of values. The group sheet draws each
    member's cumulative net money over the evenings with it.
    """
    room = width * NAME_SHARE
    names = [_short(name, font, font_size, room) for name in series]
    name_width = LEADER + 2 + max(stringWidth(name, font, font_size) for name in names)
    drawing = Drawing(width, height, initialFontName=font)  # the default state font is Helvetica
    plot = _plot([list(values) for values in series.values()], font, font_size, width - name_width, height)
    drawing.add(plot)
    for index, (name, (x, y), label_y) in enumerate(_ends(plot, names, font_size)):
        drawing.add(Line(x, y, x + LEADER, label_y, strokeColor=_colour(index), strokeWidth=1.5))
        drawing.add(String(x + LEADER + 2, label_y - font_size * 0.35, name, fontName=font, fontSize=font_size,
                           fillColor=INK))
    return drawing


def evening_picture(report: Report, lang: str, font: ReportFont, width: float = 360, scale: float = 3) -> bytes:
    """The evening's running totals as a PNG for chat apps (chart.png): its name and date, then the chart.

    `width` points at `scale` pixels each: 1080 px wide, as the card.
    """
    header, margin = report.header, 16
    drawing = Drawing(width, width * 0.75, initialFontName=font.name)
    top = drawing.height - margin
    title = f"{header.name} · {header.date.isoformat()}"
    drawing.add(String(margin, top - 14, _short(title, font.name, 14, width - 2 * margin), fontName=font.name,
                       fontSize=14, fillColor=INK))
    drawing.add(String(margin, top - 32, word(lang, "hand.running_totals"), fontName=font.name, fontSize=10,
                       fillColor=MUTED))
    chart = Group(*line_chart(report.running_totals(), font.name, width - 2 * margin, top - 40 - margin, 9).contents)
    chart.translate(margin, margin)
    drawing.add(chart)
    out = io.BytesIO()
    bitmap(drawing, scale).save(out, format="PNG")
    return out.getvalue()


def bitmap(drawing: Drawing, scale: float) -> Image.Image:
    """`drawing` as an RGB picture, `scale` pixels to the point, drawn by renderPM (rlPyCairo); its pixels read by
    Pillow at once, as rlPyCairo's own reading walks them one by one in Python (benchmarks/pictures.py)."""
    surface = renderPM.drawToPMCanvas(drawing, dpi=72 * scale)._gs.surface
    order = "BGRX" if sys.byteorder == "little" else "XRGB"  # cairo's RGB24: a native-endian 32-bit word a pixel
    return Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), bytes(surface.get_data()), "raw",
                            order, surface.get_stride(), 1)


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Heights as close to `wanted` as they can be while at least `gap` apart, kept within `low`..`high` if they fit.

    >>> spread([10, 11, 50], 5, 0, 100)
    [10, 15, 50]
    >>> spread([98, 99], 5, 0, 100)
    [95, 100]
    """
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = list(wanted)
    floor = low
    for i in order:  # up from the bottom, each at least `gap` above the one below
        placed[i] = floor = max(placed[i], floor)
        floor += gap
    ceiling = high
    for i in reversed(order):  # then down from the top, for those pushed past it
        placed[i] = ceiling = min(placed[i], ceiling)
        ceiling -= gap
    return placed


def _ends(plot: LinePlot, names: list[str], font_size: float) -> list[tuple[str, tuple[float, float], float]]:
    """Each line's name, where the line ends, and the height its name goes at (apart from the others)."""
    across, up = plot.xValueAxis, plot.yValueAxis
    up.setPosition(plot.x, plot.y, plot.height)  # as LinePlot.draw does, to know where a value lands
    up.configure(plot.data)
    across.setPosition(plot.x, plot.y, plot.width)
    across.configure(plot.data)
    ends = [(across.scale(row[-1][0]), up.scale(row[-1][1])) for row in plot.data]
    heights = spread([y for _, y in ends], font_size * 1.15, plot.y, plot.y + plot.height)
    return list(zip(names, ends, heights))


def _short(name: str, font: str, size: float, room: float) -> str:
    """`name` whole, or cut with … to fit `room`."""
    if stringWidth(name, font, size) <= room:
        return name
    while name and stringWidth(name + ELLIPSIS, font, size) > room:
        name = name[:-1]
    return name + ELLIPSIS


def _plot(series: list[list[int]], font: str, font_size: float, right: float, height: float) -> LinePlot:
    plot = LinePlot()
    values = [value for totals in series for value in totals]
    left = 6 + max(stringWidth(f"{value:,}", font, font_size) for value in (min(values), max(values), -10)) * 1.2
    plot.x, plot.y, plot.width, plot.height = left, font_size * 2.5, right - left, height - font_size * 4
    plot.data = [list(enumerate(totals)) for totals in series]
    for index in range(len(series)):
        plot.lines[index].strokeColor = _colour(index)
        plot.lines[index].strokeWidth = 1.5
        if index >= len(PALETTE_HEX):
            plot.lines[index].strokeDashArray = (4, 2)
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = font
        axis.labels.fontSize = font_size
    low, high = min(values), max(values)
    if high - low < MAX_TICKS:  # whole amounts only, never a tick at 0.5; a flat evening still has an axis
        plot.yValueAxis.valueMin, plot.yValueAxis.valueMax, plot.yValueAxis.valueStep = low - 1, high + 1, 1
    hands = max(len(series[0]) - 1, 1)
    plot.xValueAxis.valueMin = 0
    plot.xValueAxis.valueMax = hands
    plot.xValueAxis.valueStep = -(-hands // MAX_TICKS)  # whole hands only, never a tick at 0.5
    plot.xValueAxis.labelTextFormat = "%d"
    return plot


def _colour(index: int):
    return colors.HexColor(colour_hex(index))
