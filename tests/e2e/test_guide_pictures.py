"""The guide's pictures (docs/guide/pictures/<name>-<lang>.png), taken from real flows at 390 px in each language.

``make docs`` runs this module with ``TAIZHANG_GUIDE_PICTURES=1``, which writes the pictures into the guide;
otherwise (``make test``) each flow runs in one language (``in_guides_language``) and its pictures go to
tests/artifacts/, so a flow that breaks fails the suite before the guide goes stale. Pictures are reduced to 256
colours: a guide page stays light.

The evening's amounts (底 100, 台 20, dealer extra 1 + 2n): hand 1, the second seat wins 3 台 on the third's
discard, the dealer not involved: 100 + 20 × 3 = 160; the deal passes to the second seat. Hand 2, the first
seat wins 門清 1 + 平胡 2 = 3 台 on the third's discard, the dealer again not involved: 160 again.
"""
import io
import os
import re
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, ROOT
from tests.e2e.steps import begin_win, choose, expect_totals, quick_win, start_evening, tap_tiles, to_table

GUIDE_PICTURES = ROOT / "docs" / "guide" / "pictures"
WRITE_GUIDE = os.environ.get("TAIZHANG_GUIDE_PICTURES") == "1"
LANGUAGES = {
    "zh-Hant": {"locale": "zh-TW", "players": ["阿美", "志明", "淑芬", "建宏"], "evening": "週五", "group": "週五牌友會",
                "cup": "春季盃", "entrants": ["阿美", "志明", "淑芬", "建宏", "小王", "阿芳", "老李", "小文", "阿輝"]},
    "zh-Hans": {"locale": "zh-CN", "players": ["阿美", "志明", "淑芬", "建宏"], "evening": "周五", "group": "周五牌友会",
                "cup": "春季杯", "entrants": ["阿美", "志明", "淑芬", "建宏", "小王", "阿芳", "老李", "小文", "阿辉"]},
    "en": {"locale": "en-US", "players": ["Amy", "Ben", "Cat", "Dan"], "evening": "Friday", "group": "Friday club",
           "cup": "Spring cup", "entrants": ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]},
}
STAKES = {"base": 100, "per_tai": 20}
#: 門清 1 + 平胡 2 in taiwan, won on 7s (tests/e2e/test_evening.py works it out).
ALL_CHOWS_HAND = "123m456m789p234s56s55p"


def save(png: bytes, name: str, lang: str) -> Path:
    """The picture, 390 px wide and in 256 colours, into the guide (make docs) or tests/artifacts/."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width != 390:
        image = image.resize((390, round(image.height * 390 / image.width)), Image.LANCZOS)
    folder = GUIDE_PICTURES if WRITE_GUIDE else ARTIFACTS / "guide"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{lang}.png"
    image.quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path


def shot(page, name: str, lang: str, element: str | None = None):
    """What the phone shows, from the top of the view (or from `element`, scrolled to the top of the screen)."""
    if element:
        page.get_by_test_id(element).first.evaluate(  # under the sticky top bar, not behind it
            "(node) => window.scrollTo({top: node.getBoundingClientRect().top + window.scrollY - 70, behavior: 'instant'})")
    else:
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    page.wait_for_timeout(150)  # the scroll and any transition settled
    save(page.screenshot(), name, lang)


def opened(new_phone, lang: str):
    """A phone in `lang` with the page open at its start; (the page, the language's names)."""
    words = LANGUAGES[lang]
    page = new_phone(locale=words["locale"]).new_page()
    page.goto("/")
    return page, words


def in_guides_language(lang: str):
    """All three languages for ``make docs``; in ``make test`` only ``lang`` (the flows share the three out), as
    each browser flow (``steps.in_one_language``): every view in all three is test_every_view.py's."""
    return pytest.mark.parametrize("lang", list(LANGUAGES) if WRITE_GUIDE else [lang])


def go(page, route: str, ready: str):
    page.evaluate("(route) => { location.hash = route; }", route)
    expect(page.get_by_test_id(ready).first).to_be_visible()


@in_guides_language("zh-Hant")
def test_an_evening_at_the_table(new_phone, api, lang):
    page, words = opened(new_phone, lang)
    amy, ben, cat, dan = words["players"]
    context = page.context
    expect(page.get_by_test_id("start-submit")).to_be_visible()
    shot(page, "start", lang)
    page.get_by_test_id("house-rules-summary").click()
    shot(page, "house-rules", lang, "house-rules-summary")
    page.get_by_test_id("house-rules-summary").click()
    session = start_evening(page, players=words["players"], stakes=STAKES, name=words["evening"])
    shot(page, "share", lang)
    to_table(page)
    begin_win(page, ben, cat)
    page.get_by_test_id("quick-0").fill("3")
    page.get_by_test_id("quick-0").blur()
    expect(page.get_by_test_id("win-preview")).to_contain_text("160")  # the server's preview of who pays what
    shot(page, "win-tai", lang)
    page.get_by_test_id("win-submit").click()
    expect_totals(page, ["0", "+160", "-160", "0"])
    shot(page, "table", lang)

    begin_win(page, amy, cat)
    choose(page, "entry-mode", "full")
    tap_tiles(page, ALL_CHOWS_HAND)
    choose(page, "picker-target", "winning")
    tap_tiles(page, "7s")
    page.get_by_test_id("win-submit").click()  # Count: the breakdown before anything is recorded
    expect(page.get_by_test_id("breakdown-total")).to_be_visible()
    shot(page, "win-tiles", lang, "preview")
    page.get_by_test_id("win-submit").click()
    # Ben deals now and is not in it: Cat pays 100 + 20 × 3 = 160 again.
    expect_totals(page, ["+160", "+160", "-320", "0"])

    page.get_by_test_id("btn-draw").click()
    choose(page, "draw-reason", "exhausted")
    shot(page, "draw", lang)
    page.get_by_test_id("draw-submit").click()
    expect(page.get_by_test_id("board")).to_be_visible()

    context.set_offline(True)  # the Wi-Fi gone: the hand waits on the phone
    quick_win(page, dan, None, 1)
    expect(page.get_by_test_id("net")).to_be_visible()
    shot(page, "offline", lang)
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("net")).to_be_hidden()

    expect(page.get_by_test_id("toast")).to_be_hidden(timeout=15_000)  # "1 hand sent" gone before the pictures
    go(page, "history", "hand-list")
    page.get_by_test_id("hand-list").locator(".hand-head").first.click()
    shot(page, "history", lang)
    go(page, "settle", "standings")
    shot(page, "settle", lang)
    card = api.get(f"/api/sessions/{session['id']}/card.png?lang={lang}",
                   headers={"Authorization": f"Bearer {session['token']}"})
    assert card.status == 200
    save(card.body(), "card", lang)


@in_guides_language("zh-Hans")
def test_a_group_made_on_the_page(new_phone, lang):
    page, words = opened(new_phone, lang)
    page.get_by_test_id("lead-group").click()
    page.get_by_test_id("group-name-input").fill(words["group"])
    page.get_by_test_id("group-stake-base").fill(str(STAKES["base"]))
    page.get_by_test_id("group-stake-per_tai").fill(str(STAKES["per_tai"]))
    shot(page, "group-new", lang, "new-group-card")
    page.get_by_test_id("group-create").click()
    expect(page.get_by_test_id("group-member-qr-image")).to_be_visible()
    shot(page, "group-links", lang)
    page.get_by_test_id("to-group").click()
    for name in words["players"]:
        page.get_by_test_id("member-name-input").fill(name)
        page.get_by_test_id("add-member-submit").click()
        expect(page.get_by_test_id("member-link").last).to_have_text(name)
    shot(page, "group", lang)

    page.get_by_test_id("group-new-evening").click()
    for name in words["players"]:
        page.get_by_test_id("roster").get_by_role("button", name=name, exact=True).click()
    shot(page, "group-evening", lang)
    page.get_by_test_id("group-evening-submit").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    amy, ben, cat, dan = words["players"]
    quick_win(page, ben, cat, 3)
    expect_totals(page, ["0", "+160", "-160", "0"])
    page.get_by_test_id("nav-group").click()
    page.get_by_test_id("nav-standings").click()
    expect(page.get_by_test_id("standing")).to_have_count(4)
    shot(page, "standings", lang)
    page.get_by_test_id("to-group").click()
    page.get_by_test_id("nav-balances").click()
    page.get_by_test_id("payment-from").select_option(label=cat)  # Cat pays Ben 100 of the 160 owed
    page.get_by_test_id("payment-to").select_option(label=ben)
    page.get_by_test_id("payment-amount").fill("100")
    page.get_by_test_id("payment-submit").click()
    expect(page.get_by_test_id("payment")).to_have_count(1)
    shot(page, "balances", lang)


@in_guides_language("en")
def test_a_competition_day(new_phone, lang):
    page, words = opened(new_phone, lang)
    page.get_by_test_id("to-competition-new").click()
    page.get_by_test_id("comp-name").fill(words["cup"])
    page.get_by_test_id("comp-rounds").fill("3")
    page.get_by_test_id("comp-check-in").check()
    shot(page, "competition-new", lang)
    page.get_by_test_id("comp-create").click()
    expect(page.get_by_test_id("comp-heading")).to_have_text(words["cup"])
    page.get_by_test_id("entrant-names").fill("\n".join(words["entrants"]))
    page.get_by_test_id("entrants-add").click()
    expect(page.get_by_test_id("entrants").locator("li.entrant")).to_have_count(9)
    for name in words["entrants"][:8]:
        entrant = page.locator(f'li.entrant[data-name="{name}"]')
        entrant.get_by_test_id("check-in").click()
        expect(entrant.get_by_test_id("check-in")).to_have_attribute("aria-pressed", "true")
    shot(page, "competition-entrants", lang, "entrants")
    page.get_by_test_id("draw-seed").fill("7")
    page.get_by_test_id("draw-round").click()
    expect(page.get_by_test_id("comp-table")).to_have_count(2)
    page.get_by_test_id("start-round").click()
    expect(page.get_by_test_id("end-round")).to_be_visible()  # the clock runs
    shot(page, "competition-round", lang, "round-clock")

    link = page.get_by_test_id("comp-table").first.get_by_test_id("table-link").input_value()
    table = page.context.new_page()
    table.goto(re.sub(r"^https?://[^/]+", "", link))
    expect(table.get_by_test_id("board")).to_be_visible()
    east, south, west, _ = [table.get_by_test_id(f"seat-name-{seat}").inner_text() for seat in range(4)]
    quick_win(table, south, west, 3)
    expect(table.get_by_test_id("total-1")).to_have_text("+160")
    shot(table, "competition-table", lang)

    wall = page.context.new_page()
    wall_link = page.get_by_test_id("wall-link").input_value()
    wall.goto(re.sub(r"^https?://[^/]+", "", wall_link))
    expect(wall.get_by_test_id("wall-ranking").locator("li").first).to_be_visible()
    shot(wall, "wall", lang)
    page.bring_to_front()
    page.get_by_test_id("to-comp-standings").click()
    expect(page.get_by_test_id("tie-breaks")).to_be_visible()
    shot(page, "competition-standings", lang)

