"""The running-total chart (reports.chart): colours told apart by colour-blind readers, names at the line ends, the
same colours on the page, and the card's chart drawn by reportlab.

Colour-blind sight is simulated with Machado, Oliveira and Fernandes' matrices (2009, full severity) on linear RGB;
two colours count as told apart when they stay at least 15 apart in CIELAB (ΔE 1976; 2.3 is the least a
person notices, and lines side by side want far more).
"""
import itertools
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from PIL import ImageChops
from reportlab.graphics import renderPM
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import String

from reports import card as cards
from reports.build import build_report
from reports.chart import FONT_SIZE, PALETTE_HEX, bitmap, line_chart, spread
from reports.fonts import report_font
from tests.reports.evenings import friday

CHART_JS = Path(__file__).resolve().parents[2] / "api/page/static/app/js/parts/chart.js"
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def linear(code: str) -> list[float]:
    channels = [int(code[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def cielab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116  # noqa: E731
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_by(code: str, sight: str) -> tuple[float, float, float]:
    rgb = linear(code)
    return cielab([min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in MACHADO[sight]])


def distance(first: str, second: str, sight: str) -> float:
    return sum((a - b) ** 2 for a, b in zip(seen_by(first, sight), seen_by(second, sight))) ** 0.5


def test_every_two_colours_stay_apart_for_colour_blind_readers():
    for sight in MACHADO:
        for first, second in itertools.combinations(PALETTE_HEX, 2):
            assert distance(first, second, sight) >= 15, (sight, first, second)


def test_the_simulation_tells_the_colours_colour_blind_readers_confuse():
    """A common chart palette's red and green (a deuteranope's confusion) and green and orange (a protanope's)."""
    assert distance("#d62728", "#2ca02c", "deuteranopia") < 15 < distance("#d62728", "#2ca02c", "protanopia")
    assert distance("#2ca02c", "#ff7f0e", "protanopia") < 15 < distance("#2ca02c", "#ff7f0e", "deuteranopia")


def test_the_page_draws_in_the_same_colours():
    source = CHART_JS.read_text(encoding="utf-8")
    page = re.search(r"export const PALETTE = \[([^\]]*)\]", source).group(1)
    assert tuple(re.findall(r"'(#[0-9A-Fa-f]{6})'", page)) == PALETTE_HEX


def test_each_line_ends_in_its_players_name_and_the_names_stand_apart():
    series = {"Amy": [0, 100, 40], "Ben": [0, -60, 40], "小明": [0, -40, -80]}  # Amy and Ben end level
    font = report_font().name
    drawing = line_chart(series, font, 400)
    names = {item.text: item for item in drawing.contents if isinstance(item, String)}
    assert set(names) == set(series)
    plot = next(item for item in drawing.contents if isinstance(item, LinePlot))
    right = plot.x + plot.width
    assert all(name.x > right for name in names.values())
    assert all(name.x + name.getBounds()[2] - name.getBounds()[0] <= 400 for name in names.values())
    heights = sorted(name.y for name in names.values())
    assert all(b - a >= FONT_SIZE for a, b in zip(heights, heights[1:]))
    assert names["小明"].y < min(names["Amy"].y, names["Ben"].y)  # the lowest total, the lowest name


@given(st.lists(st.floats(0, 100), min_size=1, max_size=8), st.floats(1, 12))
def test_spread_names_keep_their_order_their_gaps_and_the_frame(wanted, gap):
    placed = spread(wanted, gap, 0, 100)
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    ys = [placed[i] for i in order]
    assert all(b - a >= gap - 1e-9 for a, b in zip(ys, ys[1:]))
    if gap * (len(wanted) - 1) <= 100:  # when they fit, inside the frame
        assert -1e-9 <= ys[0] and ys[-1] <= 100 + 1e-9


def test_the_cards_chart_is_the_reportlab_drawing_pasted():
    report, font = build_report(*friday()), report_font()
    card = cards.session_card(report, "en")
    image = cards.Image.open(cards.io.BytesIO(cards.render_card(card, font))).convert("RGB")
    scale = cards.CHART_SCALE
    drawn = bitmap(line_chart(report.running_totals(), font.name, cards.CONTENT / scale,
                              cards.CHART_HEIGHT / scale, cards.SMALL_SIZE / scale), scale).convert("RGB")
    # The chart sits under its heading, above the footer's margin: find it by its size at the card's left margin.
    top = image.height - 2 * cards.MARGIN - drawn.height
    pasted = image.crop((cards.MARGIN, top, cards.MARGIN + drawn.width, top + drawn.height))
    assert ImageChops.difference(pasted, drawn).getbbox() is None


def test_the_bitmap_is_renderpms_own_picture():
    """`bitmap` reads cairo's pixels itself (rlPyCairo's reading is slow): the same picture, pixel for pixel."""
    drawing = line_chart({"Amy": [0, 120, -40], "小明": [0, -120, 40]}, report_font().name, 300, 140, 10)
    assert ImageChops.difference(bitmap(drawing, 3), renderPM.drawToPIL(drawing, dpi=216).convert("RGB")).getbbox() \
        is None
