"""Issue 20 × issue 19: a group's standings and balances shared as pictures, exactly as Settle shares an evening.

A 简体 phone whose share sheet takes files (navigator.share stubbed, as in test_share_card.py) taps "Share
as a picture" on the standings (this year's) and on the balances: each time the share sheet gets one PNG,
1080 px wide, the very picture the API serves for that period in 简体中文, titled with the group's name.
"""
import base64
import datetime

from playwright.sync_api import expect

from tests.e2e.steps import choose
from tests.e2e.test_every_group_view import GROUPS, bearer, seed
from tests.e2e.test_share_card import CARD_WIDTH, SHARE_STUB, phone_with, png_size


def shared_png(page, testid):
    """Tap `testid`, wait for the share sheet, and return what it was handed (with the PNG's bytes)."""
    page.evaluate("window.__shared = null")
    with page.expect_request("**/*.png?*") as asked:
        page.get_by_test_id(testid).click()
    page.wait_for_function("() => window.__shared !== null")
    shared = page.evaluate("window.__shared")
    return asked.value.url, shared, base64.b64decode(shared["base64"])


def test_standings_and_balances_go_to_the_share_sheet_as_pngs(browser, live_server, api):
    words = GROUPS["zh-Hans"]
    group, _ = seed(api, words)
    context = phone_with(browser, live_server, SHARE_STUB, locale="zh-CN")
    try:
        page = context.new_page()
        page.goto(f"/#g={group['id']}&t={group['member_token']}&r={group['read_token']}")
        expect(page.get_by_test_id("group-name")).to_have_text(words["group"])
        read = bearer(group["read_token"])
        year = datetime.date.today().year

        page.get_by_test_id("nav-standings").click()
        choose(page, "period", "year")
        expect(page.get_by_test_id("standings-box")).to_have_attribute("data-period", "year")
        url, shared, data = shared_png(page, "share-card")
        period = f"from={year}-01-01&to={year}-12-31"
        assert url.endswith(f"/standings.png?{period}&lang=zh-Hans")
        assert (shared["type"], shared["title"]) == ("image/png", words["group"])
        assert shared["name"].endswith(".png")
        assert png_size(data)[0] == CARD_WIDTH
        assert data == api.get(f"/api/groups/{group['id']}/standings.png?{period}&lang=zh-Hans", headers=read).body()

        page.get_by_test_id("to-group").click()
        page.get_by_test_id("nav-balances").click()
        url, shared, data = shared_png(page, "share-card")
        assert url.endswith("/balances.png?lang=zh-Hans")
        assert (shared["type"], shared["title"]) == ("image/png", words["group"])
        assert png_size(data)[0] == CARD_WIDTH
        assert data == api.get(f"/api/groups/{group['id']}/balances.png?lang=zh-Hans", headers=read).body()
    finally:
        context.close()
