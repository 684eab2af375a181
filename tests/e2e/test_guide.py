"""The guide at /guide on a 390 px phone (issue 41 item 3), and the page's help link to it.

The guide opens in 繁 and EN (by the phone's language and by ``?lang=``) with every picture loaded from the server,
their sizes in the page (so a section opened by its anchor stays in view as they load), nothing wider than
the screen, and axe-core finding no serious or critical violation. The top bar's ``?`` of a
screen leads to that screen's section, in the language the page is in. Screenshots: tests/artifacts/41-*.png.
"""
import pytest
from playwright.sync_api import expect

from tests.e2e.steps import screenshot, start_evening, switch_language, to_table
from tests.e2e.test_every_view import AXE_RUN, OVERFLOW

#: Pictures not loaded (or broken), or without their size given before they load: their addresses.
UNLOADED = """() => [...document.images].filter((image) => !image.complete || image.naturalWidth === 0
  || image.getAttribute("width") !== String(image.naturalWidth)
  || image.getAttribute("height") !== String(image.naturalHeight)).map((image) => image.src)"""
PICTURES = {"index": 0, "evening": 10, "group": 6, "house-rules": 1, "competition": 6}


@pytest.mark.parametrize(("locale", "lang", "heading"), [("zh-TW", "zh-Hant", "一晚的牌局"),
                                                         ("en-US", "en", "An evening at the table")])
def test_the_guide_opens_on_a_phone_in_the_reader_s_language_with_its_pictures(new_phone, axe_core, locale, lang,
                                                                               heading):
    page = new_phone(locale=locale).new_page()
    page.goto("/guide")  # the phone's own language, as Accept-Language says it
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("nav.topics a").nth(1).click()
    expect(page.locator("h1")).to_have_text(heading)
    assert page.evaluate("location.pathname + location.search") == f"/guide/evening?lang={lang}"
    for topic, count in PICTURES.items():
        page.goto(f"/guide/{topic}?lang={lang}" if topic != "index" else f"/guide?lang={lang}")
        page.wait_for_load_state("load")
        expect(page.locator("main img")).to_have_count(count)
        assert page.evaluate(UNLOADED) == [], topic
        assert page.evaluate(OVERFLOW) == [], topic
        page.evaluate(axe_core.read_text(encoding="utf-8"))
        assert page.evaluate(AXE_RUN) == [], topic
        screenshot(page, f"41-guide-{topic}-{lang}")


def test_the_help_link_of_a_screen_opens_its_section_in_the_page_s_language(new_phone):
    page = new_phone(locale="en-US").new_page()
    page.goto("/")
    expect(page.get_by_test_id("start-submit")).to_be_visible()
    switch_language(page, "繁")
    help_link = page.get_by_test_id("help")
    expect(help_link).to_have_attribute("href", "/guide/evening?lang=zh-Hant#start")
    expect(help_link).to_have_accessible_name("說明：這個畫面的使用說明")
    start_evening(page, name="週五")
    expect(help_link).to_have_attribute("href", "/guide/evening?lang=zh-Hant#share")
    to_table(page)
    expect(help_link).to_have_attribute("href", "/guide/evening?lang=zh-Hant#table")
    page.get_by_test_id("nav-settle").click()
    expect(help_link).to_have_attribute("href", "/guide/evening?lang=zh-Hant#settle")
    screenshot(page, "41-help-link-settle")
    help_link.click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.locator("h1")).to_have_text("一晚的牌局")
    assert page.evaluate("location.hash") == "#settle"
    # Scrolled to it: the browser scrolls to the address's section once it has laid the page out, which may be
    # after the heading is on screen.
    page.wait_for_function("document.querySelector('#settle').getBoundingClientRect().top < 200")
    screenshot(page, "41-help-settle-section")

    page.goto("/#competition-new")
    expect(page.get_by_test_id("comp-name")).to_be_visible()
    expect(help_link).to_have_attribute("href", "/guide/competition?lang=zh-Hant#make")
    switch_language(page, "EN")
    expect(help_link).to_have_attribute("href", "/guide/competition?lang=en#make")
    help_link.click()
    expect(page.locator("h1")).to_have_text("A competition day")
    expect(page.locator("#make + h2, :has(> #make) + h2").first).to_have_text("Make the competition")
