"""Issue 20: three languages (繁 / 简 / EN) and big text, each remembered by the phone.

The tables of js/i18n.js are read in the browser (the page's own module), so the
test sees exactly what the page uses.
"""
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.steps import screenshot, switch_language

LANGUAGE_IDS = ["zh", "zh-Hans", "en"]
TABLES = "async () => (await import('/app/js/i18n.js')).messageTables()"


def test_every_text_is_in_all_three_languages_with_the_same_blanks(phone):
    tables = phone.evaluate(TABLES)
    assert sorted(tables) == sorted(LANGUAGE_IDS)
    every_key = set().union(*(table.keys() for table in tables.values()))
    for language, table in tables.items():
        assert every_key - set(table) == set(), f"{language} lacks these texts"
    for key in every_key:
        blanks = {language: set(re.findall(r"\{(\w+)\}", table[key])) for language, table in tables.items()}
        assert blanks["zh"] == blanks["zh-Hans"] == blanks["en"], (key, blanks)


#: The rule sets the page has (kept on the phone, and carried by its HTML) forgotten.
FORGET_RULESETS = """() => {
  document.getElementById('page-rulesets')?.remove();
  for (const key of Object.keys(localStorage)) if (key.startsWith('taizhang.rulesets.')) localStorage.removeItem(key);
}"""


def test_the_switch_offers_the_three_languages_one_tap_each_and_is_remembered(phone):
    switch = phone.get_by_test_id("lang")
    heading = phone.locator("h1")
    expect(heading).to_have_text("New evening")
    # A choice of three, each named in itself, the one in use marked (issue 29 item 12: 繁 → EN in one choice).
    switch.click()
    menu = phone.get_by_test_id("lang-menu")
    expect(menu.get_by_role("menuitemradio")).to_have_text(["繁體中文", "简体中文", "English"])
    expect(menu.get_by_test_id("lang-en")).to_have_attribute("aria-checked", "true")
    screenshot(phone, "29-12-language-menu-en")
    switch.click()  # the switch again closes it
    expect(menu).to_have_count(0)
    seen = []
    for name, tag, short in (("開新牌局", "zh-Hant", "繁"), ("New evening", "en", "EN"), ("开新牌局", "zh-Hans", "简")):
        # No rule sets kept, none in the HTML: the start form in the new language reads them (the page's own request).
        phone.evaluate(FORGET_RULESETS)
        switch.click()
        with phone.expect_request("**/api/rulesets") as asked:
            phone.get_by_test_id("lang-menu").locator(f'[data-short="{short}"]').click()
        expect(heading).to_have_text(name)
        expect(switch).to_have_text(short)
        expect(phone.locator("html")).to_have_attribute("lang", tag)
        seen.append(asked.value.headers["accept-language"])
        if tag == "zh-Hans":
            phone.reload()
            expect(heading).to_have_text("开新牌局")
    # Every request says the page's language, so that the server answers in it.
    assert seen == ["zh-Hant", "en", "zh-Hans"]


@pytest.mark.parametrize(("languages", "tag"), [
    (["fr-FR", "zh-SG", "en"], "zh-Hans"),  # the first language the page speaks
    (["zh-Hans-HK"], "zh-Hans"),
    (["zh-HK", "zh-CN"], "zh-Hant"),
    (["de-DE", "fr"], "en"),  # none: English
])
def test_the_first_choice_follows_the_phones_languages(browser, live_server, languages, tag):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    try:
        context.add_init_script(f"Object.defineProperty(navigator, 'languages', {{get: () => {languages!r}}});")
        page = context.new_page()
        page.goto("/")
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", tag)
    finally:
        context.close()


def test_big_text_enlarges_type_and_is_remembered(phone):
    switch = phone.get_by_test_id("big-text")
    heading = phone.locator("h1")
    expect(switch).to_have_attribute("aria-pressed", "false")
    normal = float(heading.evaluate("(element) => parseFloat(getComputedStyle(element).fontSize)"))
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    phone.reload()
    expect(switch).to_have_attribute("aria-pressed", "true")
    big = float(heading.evaluate("(element) => parseFloat(getComputedStyle(element).fontSize)"))
    # h1 is 1.35rem: 1.35 × 16 px = 21.6 px normally, 1.35 × 20 px = 27 px in big text.
    assert (normal, big) == (21.6, 27.0)
    switch.click()
    phone.reload()
    expect(switch).to_have_attribute("aria-pressed", "false")


def test_a_refusal_is_told_by_what_was_asked_now_that_the_server_answers_in_chinese(new_phone, api):
    """The server's 403 comes in the page's language; a change a read-only link may not make is told in the
    server's own words (api.read_only), a token that opens nothing in the page's advice (issue 38 item 11)."""
    created = api.post("/api/sessions", data={"name": "周五", "ruleset": "taiwan", "players": ["甲", "乙", "丙", "丁"],
                                              "stakes": {"base": 100, "per_tai": 20}, "options": {}})
    assert created.status == 201, created.text()
    session = created.json()
    page = new_phone(locale="zh-CN").new_page()
    page.goto("/")
    expect(page.locator("h1")).to_have_text("开新牌局")
    # The page's modules, imported by the test (beside the page's bundle: their words loaded as the page loads its).
    told = page.evaluate("""async ([id, readToken]) => {
      await (await import('/app/js/i18n.js')).loadWords();
      const {api} = await import('/app/js/api.js');
      const {describeError} = await import('/app/js/parts/form.js');
      const refusal = (promise) => promise.then(() => null, describeError);
      return [await refusal(api.close({id, token: readToken})), await refusal(api.session({id, token: 'not-its-token'}))];
    }""", [session["id"], session["read_token"]])
    assert told == ["这是只读链接：只能查看牌局，不能更改。", "这台手机的链接打不开这个牌局，请重新打开分享链接。"]


def test_live_updates_come_in_the_pages_script_not_the_browsers(new_phone, api):
    """EventSource sends the browser's own Accept-Language (English here): the page asks for its own with ?lang=,
    so a hand recorded on another phone shows its patterns as the 简体 page names them (平和, not 平胡)."""
    created = api.post("/api/sessions", data={"name": "周五", "ruleset": "taiwan", "players": ["甲", "乙", "丙", "丁"],
                                              "stakes": {"base": 100, "per_tai": 20}, "options": {}})
    assert created.status == 201, created.text()
    session = created.json()
    page = new_phone(locale="en-US").new_page()
    page.goto(f"/#s={session['id']}&t={session['token']}")
    expect(page.get_by_test_id("board")).to_be_visible()
    with page.expect_request(lambda request: "/events?" in request.url and "lang=zh-Hans" in request.url):
        switch_language(page, "简")
    page.evaluate("location.hash = 'history'")
    expect(page.locator("#view")).to_contain_text("还没有打过一局")  # History, drawn before the hand: it comes live
    all_chows = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}
    recorded = api.post(f"/api/sessions/{session['id']}/hands", headers={"Authorization": f"Bearer {session['token']}"},
                        data={"winners": [{"player": "乙", "hand": all_chows, "win": {}}], "by": "discard",
                              "discarder": "丙"})
    assert recorded.status == 201, recorded.text()
    page.get_by_test_id("hand-list").locator(".hand-head").first.click()
    expect(page.get_by_test_id("hand-list")).to_contain_text("平和")
    expect(page.get_by_test_id("hand-list")).not_to_contain_text("平胡")
