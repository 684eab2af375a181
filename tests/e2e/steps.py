"""What a person does on the phone page, as reusable steps for the end-to-end tests."""
import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]


def start_evening(page: Page, players=PLAYERS, ruleset="taiwan", stakes=None, options=None, name="Friday"):
    """Fill in the start form and submit it; returns {"id", "token"} from the share link shown next."""
    page.get_by_test_id("session-name").fill(name)
    page.get_by_test_id("ruleset").locator(f'[data-value="{ruleset}"]').click()
    for key, value in (stakes or {}).items():
        page.get_by_test_id(f"stake-{key}").fill(str(value))
    for key, value in (options or {}).items():
        page.get_by_test_id(f"option-{key}").set_checked(value)
    for seat, player in enumerate(players):
        page.get_by_test_id(f"player-{seat}").fill(player)
    page.get_by_test_id("start-submit").click()
    link = page.get_by_test_id("share-link")
    expect(link).to_have_value(re.compile(r"/#s=[^&]+&t=.+"))
    fragment = link.input_value().split("#", 1)[1]
    params = parse_qs(fragment)
    return {"id": params["s"][0], "token": params["t"][0], "link": link.input_value()}


def to_table(page: Page):
    page.get_by_test_id("go-table").click()
    expect(page.get_by_test_id("board")).to_be_visible()


def choose(page: Page, group: str, value: str):
    page.get_by_test_id(group).locator(f'[data-value="{value}"]').click()


def begin_win(page: Page, winner: str, discarder: str | None):
    """Open the win form and tap the winner, then the discarder (None: 自摸)."""
    page.get_by_test_id("btn-win").click()
    choose(page, "pick-winner", winner)
    choose(page, "pick-discarder", discarder or "__self__")


def quick_win(page: Page, winner: str, discarder: str | None, value: int):
    begin_win(page, winner, discarder)
    page.get_by_test_id("quick-0").fill(str(value))
    page.get_by_test_id("win-submit").click()


def tap_tiles(page: Page, compact: str):
    """Tap tiles in the picker's palette, e.g. "123m55p" taps 1m 2m 3m 5p 5p (choosing the suit's tab first)."""
    for digits, suit in re.findall(r"(\d+)([mpszf])", compact):
        page.get_by_test_id("palette-suit").locator(f'[data-value="{suit}"]').click()
        for digit in digits:
            page.get_by_test_id("palette").locator(f'[data-tile="{digit}{suit}"]').click()


def record_draw(page: Page, reason="exhausted"):
    page.get_by_test_id("btn-draw").click()
    choose(page, "draw-reason", reason)
    page.get_by_test_id("draw-submit").click()
    expect(page.get_by_test_id("board")).to_be_visible()


def totals_on_board(page: Page) -> list[str]:
    """The four seats' totals as shown, seat 0 to 3."""
    return [page.get_by_test_id(f"total-{seat}").inner_text() for seat in range(4)]


def expect_totals(page: Page, totals: list[str]):
    for seat, total in enumerate(totals):
        expect(page.get_by_test_id(f"total-{seat}")).to_have_text(total)


def auth(session: dict) -> dict:
    return {"Authorization": f"Bearer {session['token']}"}


def api_get(api, session: dict, path: str = ""):
    response = api.get(f"/api/sessions/{session['id']}{path}", headers=auth(session))
    assert response.status == 200, response.text()
    return response.json()


def switch_language(page: Page, short: str):
    """Choose the language shown as `short` (繁, 简, EN) from the switch's menu of three."""
    switch = page.get_by_test_id("lang")
    if switch.inner_text() == short:
        return
    switch.click()
    page.get_by_test_id("lang-menu").locator(f'[data-short="{short}"]').click()
    # The language's words load first: wait for the switch to show it.
    expect(switch).to_have_text(short)


def screenshot(page: Page, name: str, full_page: bool = False):
    """Save what the phone shows now under tests/artifacts/ for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


#: Whether the service worker is in control and its one cache holds the page and the words (what a bundled release
#: keeps: its modules and style are in the page; an unbundled one keeps them beside it, under the same ``addAll``).
PAGE_KEPT = """async () => {
  const names = (await caches.keys()).filter((name) => name.startsWith('taizhang-page'));
  if (names.length !== 1 || !navigator.serviceWorker.controller) return false;
  const paths = (await (await caches.open(names[0])).keys()).map((r) => new URL(r.url).pathname);
  return paths.includes('/') && paths.includes('/app/words/en.json');
}"""


def wait_until_kept(page: Page):
    """Poll ``PAGE_KEPT`` (``wait_for_function`` would take the promise an async function returns for a true value)."""
    for _ in range(100):
        if page.evaluate(PAGE_KEPT):
            return
        page.wait_for_timeout(200)
    raise AssertionError("the service worker never kept the page")


def in_one_language(lang: str):
    """A flow runs in one language, ``lang`` (the flows share the three out): every view is drawn and checked in
    all three by test_every_view.py and test_every_group_view.py, and a check about words stays in each."""
    return pytest.mark.parametrize("lang", [lang])
