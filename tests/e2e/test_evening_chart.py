"""The evening's running totals on Settle and History (issue 43 item 1), in 繁, 简 and EN at 390 and 320 px.

The evening (Taiwanese, 100 + 20 a 台; no dealer wins or pays, so no 莊家台), players A, B, C, D:
1. B 3台 on C's discard: C pays 100 + 3 × 20 = 160.
2. D 1台 on A's: A pays 120; corrected later to 2台: A pays 140.
3. D 2台 on B's: voided, so it leaves no point.
4. A 1台 on B's: B pays 120.

Before the correction: A 0, 0, -120, 0 · B 0, 160, 160, 40 · C 0, -160, -160, -160 · D 0, 0, 120, 120.
After it, hand 2's point moves: A 0, 0, -140, -20 · D 0, 0, 140, 140 (B and C as before).
Screenshots: tests/artifacts/43-<screen>-<lang>-<width>.png.
"""
import pytest
from playwright.sync_api import expect

from tests.e2e.steps import screenshot
from tests.e2e.test_every_view import AXE_RUN, OVERFLOW, go
from tests.e2e.test_what_a_table_sees import auth, discard, new_evening, open_on, post_hands

TABLES = {"zh-Hant": ("zh-TW", ["阿美", "志明", "淑芬", "建宏"]),
          "zh-Hans": ("zh-CN", ["小王", "阿芳", "老李", "建国"]),
          "en": ("en-US", ["Amy", "Ben", "Cat", "Dan"])}
BEFORE = ([0, 0, -120, 0], [0, 160, 160, 40], [0, -160, -160, -160], [0, 0, 120, 120])
AFTER = ([0, 0, -140, -20], [0, 160, 160, 40], [0, -160, -160, -160], [0, 0, 140, 140])
# reports/chart.py's PALETTE_HEX, the first four: the players in order of first appearance.
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"]
HEADING = {"zh-Hant": "走勢", "zh-Hans": "走势", "en": "Running totals"}
PLAYED = {"zh-Hant": "3 局", "zh-Hans": "3 局", "en": "3 hands"}
SERIES = """() => [...document.querySelectorAll('[data-testid=running-chart] .chart-series')].map((line) => [
  line.dataset.player, line.dataset.values.split(' ').map(Number),
  line.querySelector('polyline').getAttribute('stroke'), line.querySelector('.chart-name').textContent])"""
#: The names at the line ends: their size on the screen in px, whether any two overlap, whether all are inside the
#: chart (an SVG cuts off what lies outside it).
NAMES = """() => {
  const chart = document.querySelector('[data-testid=running-chart]');
  const names = [...chart.querySelectorAll('.chart-name')];
  const boxes = names.map((name) => name.getBoundingClientRect());
  const frame = chart.getBoundingClientRect();
  const overlap = boxes.some((a, i) => boxes.some((b, j) => i < j && a.bottom > b.top + 1 && b.bottom > a.top + 1));
  return {size: Math.min(...names.map((name) => parseFloat(getComputedStyle(name).fontSize))) * chart.getScreenCTM().a,
          overlap, inside: boxes.every((box) => box.left >= frame.left && box.right <= frame.right + 0.5)};
}"""


@pytest.fixture(scope="module")
def axe_source(axe_core):
    return axe_core.read_text(encoding="utf-8")


def evening(api, players):
    a, b, c, d = players
    session = new_evening(api, players=players)
    post_hands(api, session, discard(b, c, 3), discard(d, a, 1), discard(d, b, 2))
    assert api.delete(f"/api/sessions/{session['id']}/hands/3", headers=auth(session)).status == 200
    post_hands(api, session, discard(a, b, 1))
    return session


def expect_series(page, players, values, lang):
    chart = page.get_by_test_id("running-chart")
    expect(chart).to_be_visible()
    expect(page.get_by_test_id("evening-chart").locator("h2")).to_have_text(HEADING[lang])
    expect(chart.locator(".chart-label").last).to_have_text(PLAYED[lang])
    wanted = [[player, list(series), colour, player] for player, series, colour in zip(players, values, COLOURS)]
    for _ in range(50):  # a live update of the change may draw the screen once more meanwhile
        if page.evaluate(SERIES) == wanted:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(SERIES) == wanted


def check_widths(page, screen, lang, axe_source, problems):
    page.evaluate(axe_source)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        names = page.evaluate(NAMES)
        if names["size"] < 12 or names["overlap"] or not names["inside"]:
            problems.append(f"{screen} {lang} {width}: names at the line ends {names}")
        problems += [f"{screen} {lang} {width}: overflow {item}" for item in page.evaluate(OVERFLOW)]
        problems += [f"{screen} {lang} {width}: axe {item}" for item in page.evaluate(AXE_RUN)]
        page.get_by_test_id("evening-chart").scroll_into_view_if_needed()
        screenshot(page, f"43-{screen}-{lang}-{width}")
    page.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.parametrize("lang", list(TABLES))
def test_the_running_totals_on_history_and_settle(new_phone, api, axe_source, lang):
    locale, players = TABLES[lang]
    session = evening(api, players)
    page = new_phone(locale=locale).new_page()
    open_on(page, session)
    go(page, "history", "running-chart")
    expect_series(page, players, BEFORE, lang)
    a, d = players[0], players[3]
    corrected = api.put(f"/api/sessions/{session['id']}/hands/2", data=discard(d, a, 2), headers=auth(session))
    assert corrected.status == 200
    go(page, "settle", "settlement")  # Settle's own: History's chart stays on screen until Settle is drawn
    expect_series(page, players, AFTER, lang)  # drawn from the settlement's running totals
    problems = []
    check_widths(page, "settle", lang, axe_source, problems)
    go(page, "history", "hand-list")
    expect(page.get_by_test_id("hand-2").get_by_test_id("corrected")).to_be_visible()
    expect_series(page, players, AFTER, lang)  # drawn by the page from the hands
    check_widths(page, "history", lang, axe_source, problems)
    assert problems == [], "\n".join(problems)


def test_no_chart_before_the_first_played_hand(new_phone, api):
    session = new_evening(api)
    post_hands(api, session, discard("Ben", "Cat", 3))
    assert api.delete(f"/api/sessions/{session['id']}/hands/1", headers=auth(session)).status == 200
    page = new_phone().new_page()
    open_on(page, session)
    go(page, "history", "hand-list")
    page.wait_for_timeout(300)  # past the frame the chart would be drawn in
    expect(page.get_by_test_id("evening-chart")).to_have_count(0)
    go(page, "settle", "transfers")
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("evening-chart")).to_have_count(0)
