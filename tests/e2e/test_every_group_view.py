"""Issue 20 × issue 19: every view of a group (牌友會) in 繁, 简 and EN, in normal and big text, at 390 and 320 px.

The sibling of test_every_view.py, with its checks (tap targets of 44 px, 48 px
in big text; nothing wider than the screen, no text past its box, no select
cutting its option off; axe-core with no serious or critical violation; every
control named in the page's language, no traditional-only character on the
简体 page), and one more for the group's own words: no English word in the
visible text of a Chinese view.

One phone per language joins a group seeded through the API (a season, two
earlier evenings, one hand counted from its tiles, a payment) and walks its
views: the group home, a new evening with three members picked and a guest
added, Settle of that evening with "Mark as paid", the standings with the
period switch, the balances with the payment form and the latest payments,
a member's page with the chart, and the group's share view.
Screenshots: tests/artifacts/20-group-<view>-<lang>-<size>-<width>.png.
"""
import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import choose, quick_win
from tests.e2e.test_every_view import FULL_HAND, LATIN_ALLOWED, NAMES_AND_TEXT, check_view, go

#: Per language: the phone's locale, the group, its members (the fourth stays home), the guest, the season, the rules.
GROUPS = {
    "zh-Hant": {"locale": "zh-TW", "group": "週五牌友會", "members": ["阿美", "志明", "淑芬", "建宏"], "guest": "小芸",
                "season": "秋季賽", "earlier": ["上週五", "上週二"],
                "defaults": {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}},
    "zh-Hans": {"locale": "zh-CN", "group": "周五牌友会", "members": ["小王", "阿芳", "老李", "建国"], "guest": "小张",
                "season": "秋季赛", "earlier": ["上周五", "上周二"], "defaults": {"ruleset": "shanghai", "stakes": {"base": 10}}},
    "en": {"locale": "en-US", "group": "Friday club", "members": ["Amy", "Ben", "Cat", "Dan"], "guest": "Eve",
           "season": "Autumn", "earlier": ["Last Friday", "Last Tuesday"],
           "defaults": {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}},
}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def created(response):
    assert response.status == 201, response.text()
    return response.json()


def seed(api, words):
    """The group with its roster, a season of this year, two evenings and a payment; returns (group, member ids)."""
    group = created(api.post("/api/groups", data={"name": words["group"], "defaults": words["defaults"]}))
    admin, member = bearer(group["admin_token"]), bearer(group["member_token"])
    ids = {name: created(api.post(f"/api/groups/{group['id']}/members", data={"name": name}, headers=admin))["id"]
           for name in words["members"]}
    year = datetime.date.today().year
    created(api.post(f"/api/groups/{group['id']}/seasons", headers=admin,
                     data={"name": words["season"], "from": f"{year}-01-01", "to": f"{year}-12-31"}))
    amy, ben, cat, dan = words["members"]
    ruleset = words["defaults"]["ruleset"]
    quick = {"points": 4} if ruleset == "shanghai" else {"tai": 3}
    for name, hands in ((words["earlier"][0], [
            {"winners": [{"player": ben, **quick}], "by": "discard", "discarder": cat},
            {"winners": [{"player": ben, "hand": FULL_HAND[ruleset], "win": {"by": "self_draw"}}], "by": "self_draw"}]),
                        (words["earlier"][1], [{"winners": [{"player": amy, **quick}], "by": "discard", "discarder": ben}])):
        evening = created(api.post("/api/sessions", data={"group": group["id"], "name": name,
                                                          "players": words["members"]}, headers=member))
        for hand in hands:
            created(api.post(f"/api/sessions/{evening['id']}/hands", data=hand, headers=bearer(evening["token"])))
    created(api.post(f"/api/groups/{group['id']}/payments", headers=member,
                     data={"from": cat, "to": ben, "amount": 50, "note": words["earlier"][0]}))
    return group, ids


def english_in_text(page, lang):
    """A Chinese view shows no English word (beyond file formats and the like) in its visible text."""
    if lang == "en":
        return []
    words = set(re.findall(r"[A-Za-z]{2,}", page.evaluate(NAMES_AND_TEXT)["text"])) - LATIN_ALLOWED
    return [f"English in the text: {sorted(words)}"] if words else []


def walk(page, view, lang, found):
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")  # the sticky bar on top of the whole page
    check_view(page, f"group-{view}", lang, found)
    found += [f"group-{view} {lang}: {item}" for item in english_in_text(page, lang)]


@pytest.mark.parametrize("lang", list(GROUPS))
def test_every_group_view_fits_is_labelled_and_passes_axe(new_phone, api, axe_core, lang):
    words = GROUPS[lang]
    group, ids = seed(api, words)
    amy, ben, cat, _ = words["members"]
    page = new_phone(locale=words["locale"]).new_page()
    page.goto(f"/#g={group['id']}&t={group['member_token']}&r={group['read_token']}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.evaluate(axe_core.read_text(encoding="utf-8"))
    found = []

    expect(page.get_by_test_id("group-evening")).to_have_count(2)
    walk(page, "home", lang, found)

    page.get_by_test_id("group-new-evening").click()
    for name in (amy, ben, cat):
        page.get_by_test_id("roster").get_by_role("button", name=name, exact=True).click()
    page.get_by_test_id("guest-name").fill(words["guest"])
    page.get_by_test_id("add-guest").click()
    expect(page.get_by_test_id("seat-pick-3")).to_have_text(words["guest"])
    walk(page, "new-evening", lang, found)

    page.get_by_test_id("group-evening-submit").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    quick_win(page, ben, cat, 3)
    expect(page.get_by_test_id("hand-no")).to_contain_text("2")
    go(page, "settle", "mark-paid-button")
    walk(page, "mark-paid", lang, found)

    go(page, "standings", "ranking")
    choose(page, "period", "year")
    expect(page.get_by_test_id("standings-box")).to_have_attribute("data-period", "year")
    walk(page, "standings", lang, found)

    go(page, "balances", "payment-form")
    expect(page.get_by_test_id("payment")).to_have_count(1)
    page.get_by_test_id("balance").first.locator("summary").click()  # open: the evenings and payments behind it
    walk(page, "balances", lang, found)

    go(page, f"member/{ids[ben]}", "net-chart")
    expect(page.get_by_test_id("net-chart").locator("circle")).to_have_count(3)  # the two earlier evenings and this one
    walk(page, "member", lang, found)

    go(page, "group-share", "group-member-qr-image")
    expect(page.get_by_test_id("group-read-qr-image")).to_be_visible()
    walk(page, "share", lang, found)
    assert found == [], "\n".join(found)
