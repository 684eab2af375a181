"""A group (牌友會) on the phone, in English and in Chinese: one phone joins by the member link
and walks through the group home, a new evening picked from the roster (with a guest added on
the spot), Mark as paid from Settle, the balances before and after a payment, the standings with
their period switch, and a member's page with its chart. Screenshots: tests/artifacts/19-*-{en,zh}.png.

The numbers, worked by hand (底 100, 台 20, dealer extra 1 + 2n, as in test_settle.py):

- "Earlier" (through the API, the older evening, left open): Amy, Ben, Cat, Dan; Amy deals;
  Ben wins 3 台 on Cat's discard: Cat pays 100 + 20 × 3 = 160. Ben +160, Cat -160.
- The phone's evening (newer, ended at the end of Settle): Amy, Ben, Cat and the guest;
  hand 1 as above (Ben +160, Cat -160); hand 2, Ben deals (streak 0) and the guest self-draws
  1 台: Amy and Cat pay 100 + 20 = 120, Ben pays 100 + 20 × (1 + 1) = 140.
  Totals: Amy -120, Ben +20, Cat -280, guest +380; marked paid, so it leaves no balance.
- Balances then: Ben +160, Cat -160 (the earlier evening); after "Cat pays Ben 100":
  Ben +60, Cat -60 (balance = evening totals + payments made - payments received).
- Standings (all time, and this year): guest +380, Ben +180, Dan 0, Amy -120, Cat -440;
  the season of 2025 holds no evening.
- Ben's page: 2 evenings, 3 hands, 2 wins (2 / 3 = 66.7 %), no deal-in; cumulative +160, then
  +180; head to head: Cat +320 (160 + 160), the guest -140 (sum +180); Amy and Dan, with whom no
  money went either way, are not listed.
"""
import re
from pathlib import Path
import pytest
from playwright.sync_api import expect

from tests.e2e.steps import expect_totals, in_one_language, quick_win, screenshot

SPEAKERS = {
    "en": {"locale": "en-US", "group": "Friday club", "names": ["Amy", "Ben", "Cat", "Dan"], "guest": "Eve",
           "earlier": "Earlier", "second": "Tuesday club"},
    "zh": {"locale": "zh-TW", "group": "週五牌友會", "names": ["阿美", "阿本", "阿貓", "阿丹"], "guest": "小伊",
           "earlier": "上週", "second": "週二牌友會"},
}
STAKES = {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}
#: Latin words a Chinese view may show: the formats of the downloads.
FORMATS = {"PDF", "CSV"}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def created(response):
    assert response.status == 201, response.text()
    return response.json()


def seed_group(api, name, members, earlier_name):
    """The group, its roster, a season of 2025 and the earlier evening (one hand), all through the API."""
    group = created(api.post("/api/groups", data={"name": name, "defaults": STAKES}))
    admin = bearer(group["admin_token"])
    for member in members:
        created(api.post(f"/api/groups/{group['id']}/members", data={"name": member}, headers=admin))
    created(api.post(f"/api/groups/{group['id']}/seasons", data={"name": "2025", "from": "2025-01-01",
                                                                 "to": "2025-12-31"}, headers=admin))
    amy, ben, cat, _ = members
    earlier = created(api.post("/api/sessions", data={"group": group["id"], "name": earlier_name, "players": members},
                               headers=bearer(group["member_token"])))
    created(api.post(f"/api/sessions/{earlier['id']}/hands", headers=bearer(earlier["token"]),
                     data={"winners": [{"player": ben, "tai": 3}], "by": "discard", "discarder": cat}))
    return group, earlier


def group_get(api, group, path):
    response = api.get(f"/api/groups/{group['id']}{path}", headers=bearer(group["read_token"]))
    assert response.status == 200, response.text()
    return response.json()


def no_english(page, lang):
    """In Chinese, the view shows no English word (member names are Chinese too) and no raw key."""
    text = page.locator("#view").inner_text()
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
    if lang == "zh":
        assert set(re.findall(r"[A-Za-z]{2,}", text)) <= FORMATS, text


def shot(page, lang, name):
    no_english(page, lang)
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")  # the sticky bar on top of the whole page
    screenshot(page, f"19-{name}-{lang}", full_page=True)


@in_one_language("zh")
def test_a_group_on_the_phone(new_phone, api, lang):
    words = SPEAKERS[lang]
    amy, ben, cat, dan = words["names"]
    guest = words["guest"]
    group, earlier = seed_group(api, words["group"], words["names"], words["earlier"])
    phone = new_phone(locale=words["locale"]).new_page()

    # Joining by the member link (as the group's QR code carries it): the group home, the token out of the address bar.
    phone.goto(f"/#g={group['id']}&t={group['member_token']}&r={group['read_token']}")
    expect(phone.get_by_test_id("group-name")).to_have_text(words["group"])
    assert phone.evaluate("location.hash") == "#group"
    expect(phone.get_by_test_id("group-evening")).to_have_count(1)
    expect(phone.get_by_test_id("member-link")).to_have_text(words["names"])  # the roster, in the order they joined

    # New evening: three members from the roster, the fourth a guest added on the spot.
    phone.get_by_test_id("group-new-evening").click()
    for name in (amy, ben, cat):
        phone.get_by_test_id("roster").get_by_role("button", name=name, exact=True).click()
    phone.get_by_test_id("guest-name").fill(amy)  # already a member: the server's refusal, next to the field
    phone.get_by_test_id("add-guest").click()
    expect(phone.locator('[data-testid=guest] [data-error-for="guest"]')).to_contain_text(TAKEN[lang])
    phone.get_by_test_id("guest-name").fill(guest)
    phone.get_by_test_id("add-guest").click()
    for seat, name in enumerate((amy, ben, cat, guest)):
        expect(phone.get_by_test_id(f"seat-pick-{seat}")).to_have_text(name)
    shot(phone, lang, "new-evening")
    phone.get_by_test_id("group-evening-submit").click()
    expect(phone.get_by_test_id("board")).to_be_visible()
    quick_win(phone, ben, cat, 3)
    expect_totals(phone, ["0", "+160", "-160", "0"])
    quick_win(phone, guest, None, 1)
    expect_totals(phone, ["-120", "+20", "-280", "+380"])

    # Settle: Mark as paid records the suggested transfers as the group's payments, in one request.
    phone.get_by_test_id("nav-settle").click()
    transfers = phone.get_by_test_id("transfers").locator("li")
    expect(transfers).to_have_count(3)
    shown = sorted((li.get_attribute("data-from"), li.get_attribute("data-to"), int(li.get_attribute("data-amount")))
                   for li in transfers.all())
    phone.get_by_test_id("mark-paid-button").click()
    phone.get_by_test_id("confirm-yes").click()
    expect(phone.get_by_test_id("marked-paid")).to_be_visible()
    evening = next(e for e in group_get(api, group, "")["evenings"] if e["id"] != earlier["id"])
    paid = [p for p in group_get(api, group, "/payments")["payments"] if p["session"] == evening["id"]]
    assert sorted((p["from"], p["to"], p["amount"]) for p in paid) == shown
    shot(phone, lang, "settle-paid")
    phone.get_by_test_id("end-evening").click()
    phone.get_by_test_id("confirm-yes").click()
    expect(phone.get_by_test_id("reopen-evening")).to_be_visible()

    # Back to the group: the open evening first, then the ended one (newer).
    phone.get_by_role("button", name=BACK_TO_TABLE[lang], exact=True).click()
    phone.get_by_test_id("nav-group").click()
    expect(phone.get_by_test_id("group-evening")).to_have_count(2)
    listed = [item.get_attribute("data-session") for item in phone.get_by_test_id("group-evening").all()]
    assert listed == [earlier["id"], evening["id"]]
    shot(phone, lang, "home")
    # The earlier evening opens with the group's member token (this phone never had the evening's own).
    phone.get_by_test_id("group-evening").first.click()
    expect_totals(phone, ["0", "+160", "-160", "0"])
    phone.get_by_test_id("nav-share").click()
    expect(phone.get_by_test_id("share-group-instead")).to_be_visible()  # never a link made of the group's token
    phone.get_by_test_id("go-table").click()
    phone.get_by_test_id("nav-group").click()

    # Balances: only the earlier evening is owed; a payment of 100 moves both balances by 100.
    phone.get_by_test_id("nav-balances").click()
    expect_balances(phone, {ben: "160", cat: "-160", amy: "0", dan: "0", guest: "0"})
    phone.get_by_test_id("payment-from").select_option(label=cat)
    phone.get_by_test_id("payment-to").select_option(label=cat)
    phone.get_by_test_id("payment-amount").fill("100")
    phone.get_by_test_id("payment-submit").click()
    expect(phone.locator('[data-error-for="to"]')).to_be_visible()  # paying oneself: refused next to the field
    phone.get_by_test_id("payment-to").select_option(label=ben)
    phone.get_by_test_id("payment-submit").click()
    expect_balances(phone, {ben: "60", cat: "-60", amy: "0", dan: "0", guest: "0"})
    expect(phone.get_by_test_id("payment")).to_have_count(4)  # the three marked paid, and this one
    assert group_get(api, group, "/balances")["balances"][cat] == -60
    shot(phone, lang, "balances")

    # Standings: all time, the season of 2025 (nothing), this year (everything again).
    phone.get_by_test_id("to-group").click()
    phone.get_by_test_id("nav-standings").click()
    ranking = [guest, ben, dan, amy, cat]
    nets = ["380", "180", "0", "-120", "-440"]
    expect_standings(phone, ranking, nets)
    phone.get_by_test_id("period").locator('[data-value^="season:"]').click()
    expect(phone.get_by_test_id("standings-empty")).to_be_visible()
    phone.get_by_test_id("period").locator('[data-value="year"]').click()
    expect_standings(phone, ranking, nets)
    shot(phone, lang, "standings")
    with phone.expect_download() as sheet:
        phone.get_by_test_id("group-pdf").click()
    assert sheet.value.suggested_filename.endswith(".pdf")
    assert Path(sheet.value.path()).read_bytes().startswith(b"%PDF")
    with phone.expect_download() as table:
        phone.get_by_test_id("standings-csv").click()
    assert table.value.suggested_filename.endswith(".csv")
    rows = Path(table.value.path()).read_text(encoding="utf-8-sig")
    assert guest in rows and "380" in rows

    # Ben's page: his figures, the chart through +160 and +180, head to head.
    phone.get_by_test_id("standing").nth(1).click()
    expect(phone.get_by_test_id("member-name")).to_have_text(ben)
    chart = phone.get_by_test_id("net-chart")
    expect(chart.locator("circle")).to_have_count(2)
    assert [c.get_attribute("data-cumulative") for c in chart.locator("circle").all()] == ["160", "180"]
    figures = phone.get_by_test_id("member-figures")
    expect(figures.locator('[data-figure="net"]')).to_have_text("+180")
    expect(figures.locator('[data-figure="evenings"]')).to_have_text("2")
    expect(figures.locator('[data-figure="hands"]')).to_have_text("3")
    expect(figures.locator('[data-figure="wins"]')).to_contain_text("66.7%")
    expect(figures.locator('[data-figure="deal_ins"]')).to_have_text(re.compile(r"^0\D"))
    head = phone.get_by_test_id("head-to-head")
    expect(head.locator("li")).to_have_count(2)  # no money ever went between Ben and Amy or Dan
    for name, net in ((cat, "+320"), (guest, "-140")):
        expect(head.locator(f'li[data-member="{name}"] .amount')).to_have_text(net)
    shot(phone, lang, "member")

    # The group's share view: the member link and the read-only link, each with its QR code.
    phone.get_by_test_id("to-group").click()
    phone.get_by_test_id("nav-group-share").click()
    expect(phone.get_by_test_id("group-member-qr-image")).to_be_visible()
    expect(phone.get_by_test_id("group-read-qr-image")).to_be_visible()
    expect(phone.get_by_test_id("group-read-link")).to_have_value(re.compile(rf"#g={group['id']}&t={group['read_token']}$"))
    shot(phone, lang, "share")

    # Another phone with the read-only link (in the contract's form, #/group/<id>?token=) follows the group
    # and is offered nothing that would change it.
    watcher = new_phone(locale=words["locale"]).new_page()
    watcher.goto(f"/#/group/{group['id']}?token={group['read_token']}")
    expect(watcher.get_by_test_id("group-read-only")).to_be_visible()
    expect(watcher.get_by_test_id("group-new-evening")).to_have_count(0)
    watcher.get_by_test_id("nav-balances").click()
    expect_balances(watcher, {ben: "60", cat: "-60"})
    expect(watcher.get_by_test_id("payment-form")).to_have_count(0)
    expect(watcher.get_by_test_id("void-payment")).to_have_count(0)

    # Offline: a group's pages say they need the server.
    phone.context.set_offline(True)
    phone.get_by_test_id("to-group").click()
    expect(phone.get_by_test_id("view-error")).to_contain_text(OFFLINE[lang])
    phone.context.set_offline(False)  # back online: the group home comes back by itself
    expect(phone.get_by_test_id("group-name")).to_have_text(words["group"])

    # The start screen lists the group like a known evening; a second group started here shows its links to hand out.
    phone.get_by_test_id("nav-start").click()
    expect(phone.get_by_test_id("known-group")).to_have_text([words["group"]])
    screenshot(phone, f"19-start-{lang}")  # the top of it (the rule sets' own names below carry some English)
    phone.get_by_test_id("new-group-card").locator("summary").click()
    phone.get_by_test_id("group-create").click()
    expect(phone.locator('[data-testid=new-group] [data-error-for="name"]')).to_be_visible()  # a name first
    phone.get_by_test_id("group-name-input").fill(words["second"])
    phone.get_by_test_id("group-create").click()
    expect(phone.get_by_test_id("group-member-qr-image")).to_be_visible()
    second = re.search(r"#g=([^&]+)&t=([^&]+)&r=", phone.get_by_test_id("group-member-link").input_value())
    answer = api.get(f"/api/groups/{second[1]}", headers=bearer(second[2]))
    assert answer.json()["name"] == words["second"] and answer.json()["access"] == "member"


TAKEN = {"en": "already another member's name", "zh": "「名字」不被接受"}
OFFLINE = {"en": "a group's pages need the server", "zh": "牌友會的頁面需要伺服器"}


BACK_TO_TABLE = {"en": "Back to the table", "zh": "回牌桌"}


def expect_balances(phone, balances):
    for name, amount in balances.items():
        expect(phone.locator(f'[data-testid="balance"][data-member="{name}"]')).to_have_attribute("data-balance", amount)


def expect_standings(phone, names, nets):
    rows = phone.get_by_test_id("ranking").locator("li")
    expect(rows).to_have_count(len(names))
    for row, name, net in zip(rows.all(), names, nets):
        expect(row.locator(".ranking-name")).to_have_text(name)
        expect(row).to_have_attribute("data-net", net)
