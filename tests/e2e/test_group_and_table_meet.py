"""Issue 29, "What a group and a table meet": what a new user tripped on, each item as a test that failed before.

Screenshots: tests/artifacts/29-<item>-<view>-<lang>.png, looked at in 繁, 简 and EN.
"""
import pytest
from playwright.sync_api import expect

from tests.e2e.steps import screenshot, start_evening, to_table

#: The page's language and the phone's locale that chooses it at first.
LOCALES = {"zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "en": "en-US"}

AXE_ALL = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => `${v.id} (${v.impact})`);
}"""


def open_page(new_phone, lang, fragment=""):
    page = new_phone(locale=LOCALES[lang]).new_page()
    page.goto(f"/{fragment}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


@pytest.mark.parametrize("lang", list(LOCALES))
def test_16_the_table_view_has_its_heading_and_no_axe_violation_at_all(new_phone, axe_core, lang):
    """axe's page-has-heading-one (moderate) on the table view: its one heading names the evening, unseen."""
    page = open_page(new_phone, lang)
    start_evening(page, name="Friday")
    to_table(page)
    expect(page.get_by_role("heading", level=1)).to_have_text({"zh-Hant": "牌桌：Friday", "zh-Hans": "牌桌：Friday",
                                                                 "en": "The table: Friday"}[lang])
    page.evaluate(axe_core.read_text(encoding="utf-8"))
    assert page.evaluate(AXE_ALL) == []
    screenshot(page, f"29-16-table-{lang}")
