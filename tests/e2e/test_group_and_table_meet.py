"""Issue 29, "What a group and a table meet": what a new user tripped on, each item as a test that failed before.

Each flow in one language of 繁, 简 and EN, the checks of words in all three. Screenshots:
tests/artifacts/29-<item>-<view>-<lang>.png.
"""
import json
import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import begin_win, expect_totals, in_one_language, quick_win, screenshot, start_evening, to_table
from tests.e2e.test_what_a_table_sees import new_evening, open_on

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


@in_one_language("zh-Hant")
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


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


GROUP_WORDS = {"zh-Hant": {"group": "週五牌友會", "names": ["阿美", "志明", "淑芬", "建宏"]},
               "zh-Hans": {"group": "周五牌友会", "names": ["小王", "阿芳", "老李", "建国"]},
               "en": {"group": "Friday club", "names": ["Amy", "Ben", "Cat", "Dan"]}}


@in_one_language("en")
def test_01_a_group_started_on_the_page_starts_its_evening_and_its_admin_changes_the_rules(new_phone, api, lang):
    """Worked amounts: at 底 50 / 台 10 the second seat winning 1 台 on the third seat's discard (the dealer
    not involved) is 50 + 10 × 1 = 60; at 底 300 / 台 10 it is 300 + 10 = 310."""
    words = GROUP_WORDS[lang]
    amy, ben, cat, dan = words["names"]
    page = open_page(new_phone, lang)
    expect(page.get_by_test_id("start-submit")).to_be_visible()
    page.get_by_test_id("new-group-card").locator("summary").click()
    group_form = page.get_by_test_id("new-group")
    page.get_by_test_id("group-name-input").fill(words["group"])
    page.get_by_test_id("group-ruleset").locator('[data-value="taiwan"]').click()
    page.get_by_test_id("group-stake-base").fill("50")
    page.get_by_test_id("group-stake-per_tai").fill("10")
    group_form.get_by_test_id("house-rules-summary").click()  # the evening form's house rules and presets, here too
    expect(group_form.get_by_test_id("house-rules")).to_be_visible()
    screenshot(page, f"29-01-new-group-{lang}", full_page=True)
    page.get_by_test_id("group-create").click()
    expect(page.get_by_test_id("group-member-qr-image")).to_be_visible()
    link = re.search(r"#g=([^&]+)&t=([^&]+)&r=", page.get_by_test_id("group-member-link").input_value())
    answer = api.get(f"/api/groups/{link[1]}", headers=bearer(link[2])).json()
    assert answer["defaults"] == {"ruleset": "taiwan", "stakes": {"base": 50, "per_tai": 10},
                                  "options": {"dealer_bonus": True}} or answer["defaults"]["stakes"] == {
                                      "base": 50, "per_tai": 10}, answer
    page.get_by_test_id("to-group").click()

    # Its first evening: four guests added on the spot, the rules as the group's defaults say.
    page.get_by_test_id("group-new-evening").click()
    for name in words["names"]:
        page.get_by_test_id("guest-name").fill(name)
        page.get_by_test_id("add-guest").click()
        expect(page.get_by_test_id("roster").get_by_role("button", name=name, exact=True)).to_be_visible()
    page.get_by_test_id("evening-terms-summary").click()
    expect(page.get_by_test_id("stake-base")).to_have_value("50")
    expect(page.get_by_test_id("stake-per_tai")).to_have_value("10")
    screenshot(page, f"29-01-group-evening-{lang}", full_page=True)
    page.get_by_test_id("group-evening-submit").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    quick_win(page, ben, cat, 1)
    expect_totals(page, ["0", "+60", "-60", "0"])

    # The admin changes the defaults on the group's home; a new evening's form starts from them.
    page.get_by_test_id("nav-group").click()
    page.get_by_test_id("group-defaults").locator("summary").click()
    expect(page.get_by_test_id("stake-base")).to_have_value("50")
    page.get_by_test_id("stake-base").fill("200")
    page.get_by_test_id("group-defaults-save").click()
    expect(page.get_by_test_id("toast")).to_contain_text(
        {"zh-Hant": "已儲存", "zh-Hans": "已保存", "en": "Saved: new evenings"}[lang])
    assert api.get(f"/api/groups/{link[1]}", headers=bearer(link[2])).json()["defaults"]["stakes"] == {
        "base": 200, "per_tai": 10}
    screenshot(page, f"29-01-group-defaults-{lang}", full_page=True)
    page.get_by_test_id("group-new-evening").click()
    page.get_by_test_id("evening-terms-summary").click()
    expect(page.get_by_test_id("stake-base")).to_have_value("200")
    # ... and this evening's table changes them for tonight only.
    page.get_by_test_id("stake-base").fill("300")
    for name in words["names"]:
        page.get_by_test_id("roster").get_by_role("button", name=name, exact=True).click()
    page.get_by_test_id("group-evening-submit").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    quick_win(page, ben, cat, 1)
    expect_totals(page, ["0", "+310", "-310", "0"])


QUEUED = {"zh-Hant": "已存在這支手機", "zh-Hans": "已存在这台手机上", "en": "Saved on this phone"}


@in_one_language("zh-Hans")
def test_02_a_phone_that_joined_by_the_link_records_a_win_and_a_draw_offline_from_the_first_minute(
        new_phone, api, lang):
    """The first phone starts the evening; the second opens the scoring link, and the Wi-Fi drops at once:
    the win form (which needs the rule sets) and the draw form work, and the hands wait in the outbox."""
    first = open_page(new_phone, lang)
    session = start_evening(first)
    joining = open_page(new_phone, lang, f"#s={session['id']}&t={session['token']}")
    expect(joining.get_by_test_id("board")).to_be_visible()
    # Everything a form needs is kept while the table is first drawn (no form opened yet).
    joining.wait_for_function("Object.keys(localStorage).some((key) => key.startsWith('taizhang.rulesets.'))")
    joining.context.set_offline(True)
    quick_win(joining, "Ben", "Cat", 3)
    expect(joining.get_by_test_id("toast")).to_contain_text(QUEUED[lang])
    screenshot(joining, f"29-02-offline-queued-{lang}")
    joining.get_by_test_id("btn-draw").click()
    joining.get_by_test_id("draw-reason").locator('[data-value="exhausted"]').click()
    joining.get_by_test_id("draw-submit").click()
    expect(joining.get_by_test_id("pending-note")).to_be_visible()
    assert len(json.loads(joining.evaluate("localStorage.getItem('taizhang.outbox') || '[]'"))) == 2
    joining.context.set_offline(False)
    expect(joining.get_by_test_id("pending-note")).to_have_count(0, timeout=15_000)
    # Ben wins 3 台 on Cat's discard (Amy deals): Cat pays 100 + 20 × 3 = 160; the draw moves no money.
    expect_totals(joining, ["0", "+160", "-160", "0"])


REPLACED = {"zh-Hant": "這個連結已換新", "zh-Hans": "这个链接已换新", "en": "This link was replaced"}


@in_one_language("zh-Hant")
def test_03_after_new_links_the_old_phones_say_so_at_once_and_show_no_totals(new_phone, api, lang):
    """A scoring phone on the table and a read-only phone on History: "New links" made elsewhere (here by
    the API) ends their live streams, and each says at once that its link was replaced, in its language."""
    first = open_page(new_phone, lang)
    session = start_evening(first)
    read_token = parse_qs(session["link"].split("#", 1)[1])["r"][0]
    scoring = open_page(new_phone, lang, f"#s={session['id']}&t={session['token']}")
    expect(scoring.get_by_test_id("board")).to_be_visible()
    reading = open_page(new_phone, lang, f"#s={session['id']}&t={read_token}")
    expect(reading.get_by_test_id("board")).to_be_visible()
    reading.get_by_test_id("nav-history").click()
    expect(reading.get_by_role("heading", level=1)).to_have_text({"zh-Hant": "紀錄", "zh-Hans": "记录",
                                                                   "en": "History"}[lang])
    answer = api.post(f"/api/sessions/{session['id']}/tokens", headers=bearer(session["token"]))
    assert answer.status == 201 or answer.status == 200, answer.text()
    for page, name in ((scoring, "table"), (reading, "history")):
        expect(page.get_by_test_id("link-replaced")).to_contain_text(REPLACED[lang])
        expect(page.get_by_test_id("total-0")).to_have_count(0)
        screenshot(page, f"29-03-replaced-{name}-{lang}")
    # Every view of the evening says it, and a reload still does (no stale totals from the saved copy).
    scoring.evaluate("location.hash = 'settle'")
    expect(scoring.get_by_test_id("link-replaced")).to_be_visible()
    scoring.reload()
    expect(scoring.get_by_test_id("link-replaced")).to_be_visible()
    expect(scoring.get_by_test_id("total-0")).to_have_count(0)


SAME = {"zh-Hant": ("同一局已經記錄了", "第 1 局和你的一樣：Ben 3台"),
        "zh-Hans": ("同一局已经记录了", "第 1 局和你的一样：Ben 3台"),
        "en": ("The same hand is already recorded", "Hand 1, just recorded on another phone, is the same as yours: Ben 3台")}
DIFFERS = {"zh-Hant": ["胡牌者：他們記 Ben，你記 Dan", "怎麼胡：他們記 放槍：Cat，你記 放槍：Amy"],
           "zh-Hans": ["胡牌者：他们记 Ben，你记 Dan", "怎么胡：他们记 点炮：Cat，你记 点炮：Amy"],
           "en": ["winner: theirs Ben, yours Dan", "how it was won: theirs discarded by Cat, yours discarded by Amy"]}


@in_one_language("en")
def test_04_the_conflict_dialog_says_when_the_other_phone_stored_the_same_hand_and_how_it_differs(
        new_phone, api, lang):
    """Two phones enter one hand at once. Worked amounts: Ben (not the dealer) wins 3 台 on Cat's discard:
    Cat pays 100 + 20 × 3 = 160, recorded once; dropping mine leaves it at that."""
    session = new_evening(api)
    first, second = open_page(new_phone, lang), open_page(new_phone, lang)
    open_on(first, session)
    open_on(second, session)
    begin_win(first, "Ben", "Cat")
    begin_win(second, "Ben", "Cat")
    first.get_by_test_id("quick-0").fill("3")
    second.get_by_test_id("quick-0").fill("3")
    first.get_by_test_id("win-submit").click()
    expect_totals(first, ["0", "+160", "-160", "0"])
    second.get_by_test_id("win-submit").click()
    dialog = second.get_by_test_id("conflict-dialog")
    title, line = SAME[lang]
    expect(dialog.get_by_test_id("conflict-same")).to_have_text(title)
    expect(dialog.get_by_test_id("conflict-since")).to_contain_text(line)
    # "Drop mine" is the main button; recording mine as a further hand stays, secondary.
    expect(dialog.get_by_test_id("conflict-drop")).to_have_class(re.compile(r"\bprimary\b"))
    expect(dialog.get_by_test_id("conflict-keep")).not_to_have_class(re.compile(r"\bprimary\b"))
    screenshot(second, f"29-04-conflict-same-{lang}")
    dialog.get_by_test_id("conflict-drop").click()
    expect_totals(second, ["0", "+160", "-160", "0"])
    assert len(api.get(f"/api/sessions/{session['id']}/hands", headers=bearer(session["token"])).json()) == 1

    # Different hands: the dialog says how they differ (Ben deals now; neither is recorded twice).
    begin_win(first, "Ben", "Cat")
    begin_win(second, "Dan", "Amy")
    first.get_by_test_id("quick-0").fill("3")
    second.get_by_test_id("quick-0").fill("2")
    first.get_by_test_id("win-submit").click()
    expect(first.get_by_test_id("board")).to_be_visible()
    second.get_by_test_id("win-submit").click()
    expect(dialog.get_by_test_id("conflict-differs").locator("li")).to_have_text(DIFFERS[lang])
    expect(dialog.get_by_test_id("conflict-same")).to_have_count(0)
    screenshot(second, f"29-04-conflict-differs-{lang}")
    dialog.get_by_test_id("conflict-drop").click()


ENDED = {"zh-Hant": "牌局已於", "zh-Hans": "牌局已在", "en": "Evening ended at"}


@in_one_language("zh-Hans")
def test_05_an_evening_ended_on_another_phone_disables_what_would_change_it_at_once(new_phone, api, lang):
    session = new_evening(api)
    table, form = open_page(new_phone, lang), open_page(new_phone, lang)
    open_on(table, session)
    open_on(form, session)
    begin_win(form, "Ben", "Cat")
    form.get_by_test_id("quick-0").fill("3")
    expect(form.get_by_test_id("win-preview")).to_be_visible()
    answer = api.post(f"/api/sessions/{session['id']}/close", headers=bearer(session["token"]))
    assert answer.status == 200, answer.text()
    # The table: 胡, 流局 and 換人 disabled, and the note says why.
    expect(table.get_by_test_id("closed-note")).to_contain_text(ENDED[lang])
    for control in ("btn-win", "btn-draw", "nav-seat"):
        expect(table.get_by_test_id(control)).to_be_disabled()
        expect(table.get_by_test_id(control)).to_have_attribute("aria-describedby", "closed-note")
    screenshot(table, f"29-05-ended-table-{lang}")
    # The win form being filled in: the note on top, Record disabled, no payment preview; Cancel still works.
    expect(form.get_by_test_id("closed-note")).to_contain_text(ENDED[lang])
    expect(form.get_by_test_id("win-submit")).to_be_disabled()
    expect(form.get_by_test_id("win-preview")).to_have_count(0)
    expect(form.get_by_test_id("win-cancel")).to_be_enabled()
    screenshot(form, f"29-05-ended-win-{lang}")
    # Reopened: everything comes back, the form as it was.
    answer = api.post(f"/api/sessions/{session['id']}/reopen", headers=bearer(session["token"]))
    assert answer.status == 200, answer.text()
    expect(table.get_by_test_id("btn-win")).to_be_enabled()
    expect(form.get_by_test_id("win-submit")).to_be_enabled()
    expect(form.get_by_test_id("quick-0")).to_have_value("3")


NOT_MEMBER = {"zh-Hant": "「Zed」不是牌友會的成員", "zh-Hans": "“Zed”不是牌友会的成员", "en": "Zed is not a member of the group"}


def seeded_group(api, members, defaults=None):
    """A group (底 100 / 台 20 unless `defaults`) with `members`, through the API."""
    group = api.post("/api/groups", data={"name": "Club", "defaults": defaults or {
        "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}}).json()
    for name in members:
        answer = api.post(f"/api/groups/{group['id']}/members", data={"name": name},
                          headers=bearer(group["admin_token"]))
        assert answer.status == 201, answer.text()
    return group


@in_one_language("zh-Hant")
def test_06_a_group_evenings_seat_change_picks_from_the_roster_and_names_a_non_member_plainly(new_phone, api, lang):
    group = seeded_group(api, ["Amy", "Ben", "Cat", "Dan", "Eve"])
    evening = api.post("/api/sessions", data={"group": group["id"], "name": "Friday",
                                              "players": ["Amy", "Ben", "Cat", "Dan"]},
                       headers=bearer(group["member_token"])).json()
    page = open_page(new_phone, lang, f"#g={group['id']}&t={group['member_token']}")
    page.get_by_test_id("group-evening").first.click()
    expect(page.get_by_test_id("board")).to_be_visible()
    page.get_by_test_id("nav-seat").click()
    page.get_by_test_id("pick-seat").locator('[data-value="3"]').click()
    # A name no member answers to: the message says so, not "the winner is refused".
    page.get_by_test_id("seat-player").fill("Zed")
    page.get_by_test_id("seat-submit").click()
    expect(page.locator('[data-error-for="player"]')).to_contain_text(NOT_MEMBER[lang])
    screenshot(page, f"29-06-seat-not-member-{lang}", full_page=True)
    # The roster offers Eve (not seated) with one tap.
    expect(page.get_by_test_id("seat-roster").get_by_role("button")).to_have_text(["Eve"])
    page.get_by_test_id("seat-roster").get_by_role("button", name="Eve").click()
    expect(page.get_by_test_id("seat-player")).to_have_value("Eve")
    page.get_by_test_id("seat-submit").click()
    expect(page.get_by_test_id("seat-3")).to_contain_text("Eve")
    # A guest added on the spot joins the roster and sits down.
    page.get_by_test_id("nav-seat").click()
    page.get_by_test_id("pick-seat").locator('[data-value="2"]').click()
    page.get_by_test_id("seat-guest-name").fill("Zed")
    page.get_by_test_id("seat-add-guest").click()
    expect(page.get_by_test_id("seat-player")).to_have_value("Zed")
    screenshot(page, f"29-06-seat-roster-{lang}", full_page=True)
    page.get_by_test_id("seat-submit").click()
    expect(page.get_by_test_id("seat-2")).to_contain_text("Zed")
    roster = api.get(f"/api/groups/{group['id']}", headers=bearer(group["read_token"])).json()["members"]
    assert "Zed" in [member["name"] for member in roster]
    assert evening["id"]


CHOICE = {"zh-Hant": "1 局等你選擇", "zh-Hans": "1 局等你选择", "en": "1 hand(s) wait for your choice"}
REFUSED = {"zh-Hant": "被伺服器拒絕", "zh-Hans": "拒收", "en": "refused"}


@in_one_language("en")
def test_07_a_waiting_hand_that_met_a_conflict_waits_for_a_choice_and_the_choice_comes_back_after_a_reload(
        new_phone, api, lang):
    """Worked amounts: Ben wins 3 台 on Cat's discard (recorded by another phone): Cat pays 160; mine
    (Dan 2 台 from Amy) is dropped."""
    session = new_evening(api)
    context = new_phone(locale=LOCALES[lang])
    page = context.new_page()
    open_on(page, session)
    context.set_offline(True)
    quick_win(page, "Dan", "Amy", 2)
    api.post(f"/api/sessions/{session['id']}/hands", headers=bearer(session["token"]),
             data={"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"})
    context.set_offline(False)
    expect(page.get_by_test_id("conflict-dialog")).to_be_visible()
    # Not "refused by the server": it waits for a choice, and says so.
    expect(page.get_by_test_id("pending-note")).to_contain_text(CHOICE[lang])
    expect(page.get_by_test_id("pending-note")).not_to_contain_text(REFUSED[lang])
    page.reload()
    dialog = page.get_by_test_id("conflict-dialog")
    expect(dialog).to_be_visible()  # by itself, no tap
    screenshot(page, f"29-07-choice-after-reload-{lang}")
    dialog.get_by_test_id("conflict-drop").click()
    expect(page.get_by_test_id("pending-note")).to_have_count(0)
    expect_totals(page, ["0", "+160", "-160", "0"])


@in_one_language("zh-Hans")
def test_08_members_are_added_on_the_group_page_listed_as_they_joined_and_each_name_opens_its_page(
        new_phone, api, lang):
    group = seeded_group(api, [])
    page = open_page(new_phone, lang, f"#g={group['id']}&t={group['member_token']}")
    expect(page.get_by_test_id("group-name")).to_have_text("Club")
    expect(page.get_by_test_id("member-link")).to_have_count(0)
    screenshot(page, f"29-08-empty-group-{lang}", full_page=True)
    # The empty group's page adds members itself, and lists them in the order they joined (not by codes).
    for name in ("志明", "Amy", "阿美"):
        page.get_by_test_id("member-name-input").fill(name)
        page.get_by_test_id("add-member-submit").click()
        expect(page.get_by_test_id("member-link").last).to_have_text(name)
    expect(page.get_by_test_id("member-link")).to_have_text(["志明", "Amy", "阿美"])
    page.get_by_test_id("member-name-input").fill("Amy")  # a name taken: refused next to the field
    page.get_by_test_id("add-member-submit").click()
    expect(page.get_by_test_id("add-member").locator('[data-error-for="name"]')).to_be_visible()
    screenshot(page, f"29-08-roster-{lang}", full_page=True)
    page.get_by_test_id("member-link").nth(2).click()
    expect(page.get_by_test_id("member-name")).to_have_text("阿美")


STREAK = {"zh-Hant": "連2", "zh-Hans": "连2", "en": "streak 2"}


@in_one_language("zh-Hant")
def test_09_the_longest_streak_on_the_member_page_is_the_tables_lian_n(new_phone, api, lang):
    """Amy deals and wins three hands running: she deals hand 1 at 連0, hand 2 at 連1, hand 3 at 連2 (the
    table's badge while it is played). Her longest streak is 連2, not "3" (hands dealt in a row)."""
    group = seeded_group(api, ["Amy", "Ben", "Cat", "Dan"])
    evening = api.post("/api/sessions", data={"group": group["id"], "name": "Friday",
                                              "players": ["Amy", "Ben", "Cat", "Dan"]},
                       headers=bearer(group["member_token"])).json()
    win = {"winners": [{"player": "Amy", "tai": 1}], "by": "discard", "discarder": "Cat"}
    for _ in range(2):
        assert api.post(f"/api/sessions/{evening['id']}/hands", data=win,
                        headers=bearer(evening["token"])).status == 201
    page = open_page(new_phone, lang, f"#g={group['id']}&t={group['member_token']}")
    page.get_by_test_id("group-evening").first.click()
    expect(page.get_by_test_id("dealer")).to_contain_text(STREAK[lang])  # hand 3 is dealt at 連2
    assert api.post(f"/api/sessions/{evening['id']}/hands", data=win, headers=bearer(evening["token"])).status == 201
    amy = api.get(f"/api/groups/{group['id']}", headers=bearer(group["read_token"])).json()["members"][0]
    page.evaluate(f"location.hash = 'member/{amy['id']}'")
    expect(page.get_by_test_id("member-figures").locator('[data-figure="streak"]')).to_have_text(STREAK[lang])
    screenshot(page, f"29-09-member-{lang}", full_page=True)


RULESET_NAMES = {"zh-Hant": ["台灣十六張 (莊家台, 連莊)"], "zh-Hans": ["台湾十六张（庄家台，连庄）"],
                 "en": ["Taiwanese 16-tile (dealer extra, streaks)"]}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_10_the_start_page_names_the_rule_sets_in_the_readers_language(new_phone, lang):
    page = open_page(new_phone, lang)
    taiwan = page.get_by_test_id("ruleset").locator('[data-value="taiwan"]')
    expect(taiwan).to_contain_text(RULESET_NAMES[lang][0])
    screenshot(page, f"29-10-start-{lang}")


PLAYED = {"zh-Hant": ("第 6 局", "已打 3 局"), "zh-Hans": ("第 6 局", "已打 3 局"), "en": ("Hand 6", "3 hands played")}


@in_one_language("en")
def test_11_after_two_voids_the_table_shows_the_next_hands_number_and_the_hands_played(new_phone, api, lang):
    """Five hands recorded (draws), the last two voided: the next hand is number 6 (a voided hand keeps its
    number) and 3 hands are played, as the sheet counts them."""
    session = new_evening(api)
    for _ in range(5):
        assert api.post(f"/api/sessions/{session['id']}/hands", data={"draw": True, "reason": "exhausted"},
                        headers=bearer(session["token"])).status == 201
    for number in (5, 4):
        answer = api.delete(f"/api/sessions/{session['id']}/hands/{number}", headers=bearer(session["token"]))
        assert answer.ok, answer.text()
    page = open_page(new_phone, lang)
    open_on(page, session)
    number, played = PLAYED[lang]
    expect(page.get_by_test_id("hand-no")).to_have_text(number)
    expect(page.get_by_test_id("hands-played")).to_have_text(played)
    screenshot(page, f"29-11-table-{lang}")


SHOWN_HEIGHT = """() => {
  const box = document.querySelector('.topbar').getBoundingClientRect();
  return Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
}"""


@pytest.mark.parametrize("lang", list(LOCALES))
def test_13_in_big_text_at_320_px_the_top_bar_does_not_keep_a_third_of_the_screen(new_phone, api, lang):
    session = new_evening(api, name="Friday night at Amy's place")
    page = open_page(new_phone, lang)
    open_on(page, session)
    page.get_by_test_id("big-text").click()
    page.set_viewport_size({"width": 320, "height": 640})
    expect(page.get_by_test_id("big-text")).to_have_attribute("aria-pressed", "true")
    # At the top it is all there, two or three lines in big text (taller than one line of controls).
    whole = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
    assert page.evaluate(SHOWN_HEIGHT) == whole > 70
    page.evaluate("window.scrollTo({top: document.scrollingElement.scrollHeight, behavior: 'instant'})")
    # Scrolled down, the bar has gone with the page (one line of controls would keep under 70 px).
    assert page.evaluate(SHOWN_HEIGHT) < 70
    screenshot(page, f"29-13-big-320-scrolled-{lang}")
