"""Issue 38 item 1 in real Chromium: a competition's table phone, opened from its card's link, scores its table and
shows none of the organiser's controls (change seat, house rules, ending and reopening the evening, new links;
Share offers the table's read-only link only), at 390 px; the organiser's page, opening the same
table with its own token, shows them. Screenshots: tests/artifacts/31-table-phone-<view>-<lang>-390.png.
"""
import pytest
from playwright.sync_api import expect

from tests.e2e.steps import in_one_language, screenshot
from tests.e2e.test_competition import BODY, LOCALES, SHARED_NAMES, bearer, check, open_as

#: The organiser's controls of an evening, by the view that draws them.
ORGANISERS = {"table": ("nav-seat", "nav-rules"), "settle": ("end-evening", "reopen-evening"),
              "share": ("share-block", "new-links")}


@pytest.fixture(scope="module")
def cup(playwright_instance, live_server):
    """8 entrants, round 1 drawn and started."""
    api = playwright_instance.request.new_context(base_url=live_server.url)
    created = api.post("/api/competitions", data={**BODY, "check_in": False}).json()
    path, organizer = f"/api/competitions/{created['id']}", bearer(created["organizer_token"])
    assert api.post(f"{path}/entrants", data={"names": SHARED_NAMES[:8]}, headers=organizer).status == 201
    drawn = api.post(f"{path}/rounds", data={"seed": 7}, headers=organizer).json()
    assert api.post(f"{path}/rounds/1/start", headers=organizer).status == 200
    yield {"created": created, "table": drawn["tables"][0]}
    api.dispose()


def go(page, view):
    page.evaluate(f"() => {{ location.hash = '{view}'; }}")


@in_one_language("en")
def test_a_tables_phone_shows_none_of_the_organisers_controls(new_phone, cup, axe_core, lang):
    table = cup["table"]
    page = new_phone(locale=LOCALES[lang]).new_page()
    page.goto(f"/#s={table['session']}&t={table['token']}&r={table['read_token']}")
    expect(page.get_by_test_id("btn-win")).to_be_enabled()  # it scores its hands
    expect(page.get_by_test_id("nav-history")).to_be_visible()
    page.evaluate(axe_core.read_text(encoding="utf-8"))
    found = []
    for view, controls in ORGANISERS.items():
        go(page, view)
        expect(page.locator(f'body[data-view="{view}"]')).to_be_visible()
        expect(page.get_by_test_id({"table": "nav-settle", "settle": "copy-text", "share": "go-table"}[view])
               ).to_be_visible()
        for control in controls:
            expect(page.get_by_test_id(control)).to_have_count(0)
        if view == "share":
            expect(page.get_by_test_id("share-read-link")).to_have_value(
                f"{page.evaluate('location.origin')}/#s={table['session']}&t={table['read_token']}")
            expect(page.get_by_test_id("share-read-qr-image")).to_be_visible()
            expect(page.get_by_test_id("share-table-hint")).to_be_visible()
        check(page, f"table-phone-{view}", lang, 390, found)
    for view in ("seat", "rules"):  # typed into the address bar, they show the table instead
        go(page, view)
        expect(page.locator('body[data-view="table"]')).to_be_visible()
        expect(page.get_by_test_id("rules-form")).to_have_count(0)
        expect(page.get_by_test_id("seat-form")).to_have_count(0)
    assert found == [], "\n".join(found)


def test_the_organisers_page_opens_a_table_with_every_control(new_phone, cup):
    table = cup["table"]
    page = new_phone().new_page()
    open_as(page, cup["created"], cup["created"]["organizer_token"])
    expect(page.get_by_test_id("round-card")).to_be_visible()
    page.goto(f"/#s={table['session']}&t={cup['created']['organizer_token']}&r={table['read_token']}")
    expect(page.get_by_test_id("nav-seat")).to_be_visible()
    expect(page.get_by_test_id("nav-rules")).to_be_visible()
    go(page, "settle")
    expect(page.get_by_test_id("end-evening")).to_be_visible()
    go(page, "share")  # the organiser's token is never made a link: the table's read-only link only
    expect(page.get_by_test_id("share-read-link")).to_be_visible()
    expect(page.get_by_test_id("share-block")).to_have_count(0)
    assert cup["created"]["organizer_token"] not in page.get_by_test_id("share-read-link").input_value()
    screenshot(page, "38-organiser-share-en-390", full_page=True)
    go(page, "rules")
    expect(page.get_by_test_id("rules-form")).to_be_visible()
