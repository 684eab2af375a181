"""Issue 20: every view in 繁, 简 and EN, in normal and big text, at 390 and 320 px wide.

One browser page per language walks through every view of an evening (three
hands recorded, one of them counted from tiles so that pattern names show), and
at each of the four sizes (normal and big text, 390 and 320 px) checks that:

- every visible button, link and input is a tap target of at least 44 px
  (48 px in big text) both ways; a checkbox counts with the label around it,
  which is what a finger taps;
- nothing is wider than the screen (the document does not scroll sideways),
  no text element's text runs past its box, and no select cuts off the text
  of its chosen option;

and in normal text at 390 px and big text at 320 px, axe-core (from its npm
package, loaded into the page) finds no serious or critical violation, WCAG AA
contrast included. In each language every control has a name in that language
(no English word in a Chinese control's name, no traditional-only character on
the 简体 page). Screenshots: tests/artifacts/20-<view>-<lang>-<size>-<width>.png.
"""
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import choose, screenshot, start_evening
from tests.e2e.test_what_a_table_sees import auth

#: The page's language, the phone's locale (the page's first choice follows it), the players and the rule set:
#: a Shanghainese table plays 清混碰 and reads 简体.
TABLES = {
    "zh-Hant": {"locale": "zh-TW", "players": ["阿美", "志明", "淑芬", "建宏"], "ruleset": "taiwan",
                "stakes": {"base": 100, "per_tai": 20}},
    "zh-Hans": {"locale": "zh-CN", "players": ["小王", "阿芳", "老李", "建国"], "ruleset": "shanghai",
                "stakes": {"base": 10}},
    "en": {"locale": "en-US", "players": ["Amy", "Ben", "Cat", "Dan"], "ruleset": "taiwan",
           "stakes": {"base": 100, "per_tai": 20}},
}
#: A hand counted from its tiles in each rule set (16 tiles in taiwan; in shanghai 清一色 qualifies).
FULL_HAND = {"taiwan": {"concealed": "123m456m789m123p456p5s", "winning_tile": "5s"},
             "shanghai": {"concealed": "123m456m789m123m5m", "winning_tile": "5m"}}
SIZES = {"normal": 44, "big": 48}
WIDTHS = (390, 320)
AXE_AT = {("normal", 390), ("big", 320)}
#: Latin words a Chinese control may carry: file formats, and the switch's own "EN".
LATIN_ALLOWED = {"PDF", "CSV", "QR", "EN", "id"}
#: Characters only traditional Chinese writes (their simplified forms differ): none may appear on the 简体 page,
#: except on the tiles (faces and names read what is printed on a tile), and in the name 台帳 itself.
TRADITIONAL_ONLY = set("們個來時說請這會點開關誰錢帳號碼連結機離線紀錄設選擇輸與麼後還對應規則聽槓莊東風萬條發蘭詐搶"
                       "單當從進場檢數據總計複製圖網頁體號軟換讀寫確認刪")

SMALL_TARGETS = """(min) => {
  const small = [];
  const shown = (element) => element.checkVisibility({visibilityProperty: true});
  for (const control of document.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary')) {
    const target = control.matches('input[type=checkbox], input[type=radio]') ? control.closest('label') || control
      : control;
    if (!shown(target)) continue;
    const box = target.getBoundingClientRect();
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      small.push(`${control.dataset.testid || control.className || control.tagName} "${
        (control.textContent || control.getAttribute('aria-label') || '').trim().slice(0, 20)}" ${
        Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""

OVERFLOW = """() => {
  const problems = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth) problems.push(`page ${page.scrollWidth} > ${window.innerWidth}`);
  for (const element of document.body.querySelectorAll('*')) {
    const text = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
    // Inline boxes have no width of their own; a closed <details> keeps boxes for what it hides.
    if (!text || !element.clientWidth || !element.checkVisibility({visibilityProperty: true})) continue;
    if (element.closest('.visually-hidden')) continue;  // read by a screen reader only, clipped on purpose
    if (element.scrollWidth > element.clientWidth + 1) {
      problems.push(`${element.dataset.testid || element.className || element.tagName} "${
        element.textContent.trim().slice(0, 20)}" ${element.scrollWidth} > ${element.clientWidth}`);
    }
  }
  // A select cuts its chosen option's text off silently: measure the text against the room left by the arrow.
  const measure = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('select')) {
    if (!select.checkVisibility({visibilityProperty: true})) continue;
    const style = getComputedStyle(select);
    measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.selectedOptions[0]?.textContent || '';
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - SELECT_ARROW;
    if (measure.measureText(text).width > room) {
      problems.push(`${select.dataset.testid || 'select'} "${text}" ${Math.round(measure.measureText(text).width)} > ${
        Math.round(room)}`);
    }
  }
  return problems;
}""".replace("SELECT_ARROW", "20")

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((node) => node.target.join(' ')).join(', ')}`);
}"""

#: The accessible name of every visible control (axe's own computation), and the page's visible text.
NAMES_AND_TEXT = """() => {
  axe.setup(document);
  try {
    const controls = [...document.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary')]
      .filter((control) => control.checkVisibility({visibilityProperty: true}));
    const names = controls.map((control) => [axe.commons.text.accessibleText(control).trim(),
      control.dataset.testid || control.outerHTML.slice(0, 80), control.matches('.tile, .brand')]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const text = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent.closest('.tile, .brand') && parent.checkVisibility({visibilityProperty: true})) text.push(node.textContent);
    }
    return {names, text: text.join(' ')};
  } finally {
    axe.teardown();
  }
}"""


def post_hands(api, session, ruleset):
    """Three hands: a quick win on a discard, a draw, and a self-drawn hand counted from its tiles."""
    who = session["players"]
    quick = {"points": 4} if ruleset == "shanghai" else {"tai": 3}
    for body in ({"winners": [{"player": who[1], **quick}], "by": "discard", "discarder": who[2]},
                 {"draw": True, "reason": "exhausted"},
                 {"winners": [{"player": who[3], "hand": FULL_HAND[ruleset], "win": {"by": "self_draw"}}], "by": "self_draw"}):
        response = api.post(f"/api/sessions/{session['id']}/hands", data=body, headers=auth(session))
        assert response.status == 201, response.text()


def go(page, route, ready):
    page.evaluate("(route) => { location.hash = route; }", route)
    expect(page.get_by_test_id(ready).first).to_be_visible()


def set_big_text(page, big: bool):
    switch = page.get_by_test_id("big-text")
    if (switch.get_attribute("aria-pressed") == "true") != big:
        switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true" if big else "false")
    assert page.evaluate("document.documentElement.classList.contains('big')") == big


def check_view(page, view, lang, found):
    """Every size of one view: targets, overflow, axe and names; screenshots; problems go to `found`."""
    for size, minimum in SIZES.items():
        set_big_text(page, size == "big")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844})
            where = f"{view} {lang} {size} {width}"
            found += [f"{where}: small target {item}" for item in page.evaluate(SMALL_TARGETS, minimum)]
            found += [f"{where}: overflow {item}" for item in page.evaluate(OVERFLOW)]
            if (size, width) in AXE_AT:
                found += [f"{where}: axe {item}" for item in page.evaluate(AXE_RUN)]
            screenshot(page, f"20-{view}-{lang}-{size}-{width}", full_page=True)
    found += [f"{view} {lang}: {item}" for item in wrong_language(page.evaluate(NAMES_AND_TEXT), lang)]


def wrong_language(seen, lang):
    """Controls without a name, Chinese controls named in English, traditional characters on the 简体 page."""
    problems = [f"a control without a name: {control}" for name, control, _ in seen["names"] if not name]
    if lang != "en":
        for name, _, _ in seen["names"]:
            words = set(re.findall(r"[A-Za-z]{2,}", name)) - LATIN_ALLOWED
            if words:
                problems.append(f"control named in English: {name!r}")
    if lang == "zh-Hans":
        for text in [name for name, _, printed in seen["names"] if not printed] + [seen["text"]]:
            wrong = sorted(set(text) & TRADITIONAL_ONLY)
            if wrong:
                problems.append(f"traditional characters {''.join(wrong)} in {text[:60]!r}")
    return problems


@pytest.fixture(scope="module")
def axe_source(axe_core):
    return axe_core.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", list(TABLES))
def test_every_view_fits_is_labelled_and_passes_axe(new_phone, api, axe_source, lang):
    table = TABLES[lang]
    page = new_phone(locale=table["locale"]).new_page()
    page.goto("/")
    # The first choice follows the phone's languages (zh-CN reads 简体, zh-TW 繁體).
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.evaluate(axe_source)  # evaluated by the browser itself, so the page's CSP does not apply
    found = []
    expect(page.get_by_test_id("start-submit")).to_be_visible()
    page.get_by_test_id("house-rules-summary").click()  # open: every control of the start form shows
    check_view(page, "start", lang, found)
    session = start_evening(page, players=table["players"], ruleset=table["ruleset"], stakes=table["stakes"],
                            name="周五" if lang != "en" else "Friday")
    session["players"] = table["players"]
    check_view(page, "share", lang, found)
    post_hands(api, session, table["ruleset"])
    go(page, "table", "board")
    expect(page.get_by_test_id("hand-no")).to_contain_text("4")
    check_view(page, "table", lang, found)
    go(page, "win", "pick-winner")
    choose(page, "pick-winner", table["players"][0])
    choose(page, "pick-discarder", table["players"][1])
    check_view(page, "win", lang, found)
    choose(page, "entry-mode", "full")
    expect(page.get_by_test_id("palette")).to_be_visible()
    check_view(page, "win-tiles", lang, found)
    go(page, "draw", "draw-reason")
    check_view(page, "draw", lang, found)
    go(page, "history", "hand-list")
    page.get_by_test_id("hand-list").locator(".hand-head").first.click()  # the latest: counted from its tiles
    check_view(page, "history", lang, found)
    go(page, "settle", "standings")
    check_view(page, "settle", lang, found)
    go(page, "seat", "pick-seat")
    check_view(page, "seat", lang, found)
    go(page, "rules", "rules-when")  # the House rules editor of an evening with hands: its two choices
    check_view(page, "rules", lang, found)
    assert found == [], "\n".join(found)
