"""The running-total chart (走勢圖): each participant's total after every played hand; flat while not seated."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.model import Report

PALETTE_HEX = (  # shared with the settlement card (reports.card): a player has one colour everywhere
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939",
)
PALETTE = [colors.HexColor(code) for code in PALETTE_HEX]
HEIGHT = 190
LEGEND_FONT_SIZE = 7.5
LEGEND_SWATCH = 24  # the colour swatch and the gaps around it, besides a name
MAX_LEGEND_WIDTH = 160  # longer names are cut with an ellipsis
MARGIN = 30
PLOT_LEFT = MARGIN + 10  # room for the y axis labels
LEGEND_GAP = 12
MAX_TICKS = 10


def running_total_chart(report: Report, font: str, width: float) -> Drawing:
    """A line per participant; every label in `font` (no Helvetica in the PDF)."""
    return line_chart(report.running_totals(), font, width)


def line_chart(series: Mapping[str, Sequence[int]], font: str, width: float) -> Drawing:
    """A line per name (x: 0, 1, 2, ... for the values in order), with a legend; every label in `font`."""
    names = [_short(name, font) for name in series]
    legend_width = LEGEND_SWATCH + max(stringWidth(name, font, LEGEND_FONT_SIZE) for name in names)
    drawing = Drawing(width, HEIGHT, initialFontName=font)  # the default state font is Helvetica
    plot = _plot([list(values) for values in series.values()], font, width - legend_width - PLOT_LEFT - LEGEND_GAP)
    drawing.add(plot)
    drawing.add(_legend(names, font, plot.x + plot.width + LEGEND_GAP))
    return drawing


def _short(name: str, font: str) -> str:
    """`name` as the legend shows it: whole, or cut with … to fit `MAX_LEGEND_WIDTH` (the page's edge)."""
    room = MAX_LEGEND_WIDTH - LEGEND_SWATCH
    if stringWidth(name, font, LEGEND_FONT_SIZE) <= room:
        return name
    while name and stringWidth(name + "…", font, LEGEND_FONT_SIZE) > room:
        name = name[:-1]
    return name + "…"


def _plot(series: list[list[int]], font: str, width: float) -> LinePlot:
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = PLOT_LEFT, 20, width, HEIGHT - 35
    plot.data = [list(enumerate(totals)) for totals in series]
    for index in range(len(series)):
        plot.lines[index].strokeColor = _colour(index)
        plot.lines[index].strokeWidth = 1.2
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = font
        axis.labels.fontSize = 7
    hands = max(len(series[0]) - 1, 1)
    plot.xValueAxis.valueMin = 0
    plot.xValueAxis.valueMax = hands
    plot.xValueAxis.valueStep = -(-hands // MAX_TICKS)  # whole hands only, never a tick at 0.5
    plot.xValueAxis.labelTextFormat = "%d"
    return plot


def _legend(players: list[str], font: str, x: float) -> Legend:
    legend = Legend()
    legend.x, legend.y = x, HEIGHT - 20
    legend.fontName, legend.fontSize = font, LEGEND_FONT_SIZE
    legend.alignment = "right"
    legend.columnMaximum = 12
    legend.colorNamePairs = [(_colour(i), name) for i, name in enumerate(players)]
    return legend


def _colour(index: int):
    return PALETTE[index % len(PALETTE)]
