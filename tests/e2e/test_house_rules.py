"""House rules on the phone page: start an evening with them, see them in a breakdown; 詐胡; presets.

Stakes 底 100 / 台 20, Amy deals first. The hand 123m 456m 789p 234s 56s 55p
+ 7s on a discard scores 門清 1 + 平胡 2 under taiwan (test_evening.py); with
平胡 at 5 台 it is 6 台. Screenshots at 390 px in English and Chinese go to
tests/artifacts/house-rules-*.png.
"""
import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from tests.e2e.steps import (PLAYERS, api_get, begin_win, choose, expect_totals, in_one_language, screenshot,
                             tap_tiles, to_table)

ALL_CHOWS_HAND = "123m456m789p234s56s55p"
WORDS = {  # what the page says, per language
    "en": {"mark": "house rule (was 2)", "summary": "House rules (家規) · 3 change(s)", "total": "Total: 6 台"},
    "zh": {"mark": "家規（原 2）", "summary": "家規 · 3 項更改", "total": "合計 6 台"},
}
LOCALES = {"en": "en-US", "zh": "zh-TW"}


def fill_start_form(page, name="House rules"):
    page.get_by_test_id("session-name").fill(name)
    for seat, player in enumerate(PLAYERS):
        page.get_by_test_id(f"player-{seat}").fill(player)


def share_session(page):
    link = page.get_by_test_id("share-link")
    expect(link).to_have_value(re.compile(r"/#s=[^&]+&t=.+"))
    fragment = link.input_value().split("#", 1)[1]
    params = parse_qs(fragment)
    return {"id": params["s"][0], "token": params["t"][0]}


@in_one_language("zh")
def test_start_with_house_rules_and_see_the_overridden_value_in_a_breakdown(new_phone, api, lang):
    phone = new_phone(locale=LOCALES[lang]).new_page()
    phone.goto("/")
    fill_start_form(phone)
    phone.get_by_test_id("house-rules-summary").click()
    search = phone.get_by_test_id("hr-search")
    search.fill("平胡")
    expect(phone.get_by_test_id("hr-pattern-all_chows")).to_be_visible()
    expect(phone.get_by_test_id("hr-pattern-concealed")).to_be_hidden()
    phone.get_by_test_id("hr-value-all_chows").fill("5")
    search.fill("all_simples")
    phone.get_by_test_id("hr-on-all_simples").uncheck()
    search.fill("")
    phone.get_by_test_id("hr-dealer-extra").select_option("1+n")
    expect(phone.get_by_test_id("house-rules-summary")).to_have_text(WORDS[lang]["summary"])
    phone.get_by_test_id("house-rules-summary").evaluate(
        "summary => { summary.scrollIntoView({block: 'start'}); window.scrollBy(0, -70); }")
    screenshot(phone, f"house-rules-start-{lang}")
    phone.get_by_test_id("hr-pattern-all_chows").evaluate("row => row.scrollIntoView({block: 'center'})")
    screenshot(phone, f"house-rules-patterns-{lang}")
    phone.get_by_test_id("start-submit").click()
    session = share_session(phone)
    assert api_get(api, session)["house_rules"] == {"values": {"all_chows": 5}, "off": ["all_simples"],
                                                    "dealer_extra": "1+n"}
    to_table(phone)
    begin_win(phone, "Amy", "Cat")
    choose(phone, "entry-mode", "full")
    tap_tiles(phone, ALL_CHOWS_HAND)
    choose(phone, "picker-target", "winning")
    tap_tiles(phone, "7s")
    phone.get_by_test_id("win-submit").click()
    breakdown = phone.get_by_test_id("breakdown")
    expect(breakdown.locator('[data-pattern="all_chows"]')).to_contain_text("5 台")
    expect(breakdown.locator('[data-pattern="all_chows"]').get_by_test_id("house-mark")).to_have_text(
        WORDS[lang]["mark"])
    expect(breakdown.locator('[data-pattern="concealed"]').get_by_test_id("house-mark")).to_have_count(0)
    expect(phone.get_by_test_id("breakdown-total")).to_have_text(WORDS[lang]["total"])
    breakdown.scroll_into_view_if_needed()
    screenshot(phone, f"house-rules-breakdown-{lang}")
    phone.get_by_test_id("win-submit").click()
    # Amy deals (streak 0): 1 + n = 1 台 extra. Cat pays 100 + 20 × (6 + 1) = 240.
    expect_totals(phone, ["+240", "0", "-240", "0"])


def test_a_false_win_from_the_win_form(phone, api):
    fill_start_form(phone, "False win")
    phone.get_by_test_id("start-submit").click()
    session = share_session(phone)
    to_table(phone)
    phone.get_by_test_id("btn-win").click()
    phone.get_by_test_id("false-win-toggle").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("False win (詐胡)")
    expect(phone.get_by_test_id("false-win-penalty")).to_have_text("Penalty: a self-drawn 8 台 to each")
    choose(phone, "pick-false-win", "Cat")
    # The preview explains the penalty before Record: Amy's line carries the dealer extra 1 + 2×0 = 1 台.
    lines = phone.get_by_test_id("preview-lines").locator("li")
    expect(lines).to_have_count(3)
    expect(lines.first).to_contain_text("false win (詐胡) · base 100 · 8 台 × 20 = 160 · "
                                        "dealer extra, Amy on streak 0: 1 + 2×0 = 1 台 × 20 = 20")
    expect(lines.nth(1)).to_contain_text("false win (詐胡) · base 100 · 8 台 × 20 = 160")
    screenshot(phone, "house-rules-false-win-en")
    phone.get_by_test_id("win-submit").click()
    # Cat pays a self-drawn 8 台: Ben and Dan 100 + 20 × 8 = 260; dealer Amy (streak 0) 100 + 20 × 9 = 280.
    expect_totals(phone, ["+280", "+260", "-800", "+260"])
    expect(phone.get_by_test_id("seat-0").get_by_test_id("dealer")).to_be_visible()  # the hand is played again
    [hand] = api_get(api, session, "/hands")
    assert hand["body"] == {"false_win": "Cat"}
    phone.get_by_test_id("nav-history").click()
    expect(phone.get_by_test_id("hand-1")).to_contain_text("Cat · False win (詐胡)")
    expect(phone.get_by_test_id("hand-1-lines").locator("li")).to_have_count(3)


def test_a_preset_fills_in_the_house_rules(phone, api):
    fill_start_form(phone, "Preset")
    phone.get_by_test_id("house-rules-summary").click()
    phone.get_by_test_id("preset-printed_table").click()
    expect(phone.get_by_test_id("hr-value-big_four_winds")).to_have_value("16")
    expect(phone.get_by_test_id("hr-on-single_wait")).to_be_checked()
    expect(phone.get_by_test_id("house-rules-summary")).to_have_text("House rules (家規) · 7 change(s)")
    phone.get_by_test_id("start-submit").click()
    session = share_session(phone)
    assert api_get(api, session)["house_rules"] == {
        "values": {"big_four_winds": 16, "small_four_winds": 8, "big_three_dragons": 8, "four_concealed_pungs": 5,
                   "heavenly_win": 24, "earthly_win": 16}, "on": ["single_wait"]}


def test_a_bad_house_rule_is_shown_beside_its_field(phone):
    fill_start_form(phone, "Bad")
    phone.get_by_test_id("house-rules-summary").click()
    phone.get_by_test_id("hr-search").fill("大四喜")
    phone.get_by_test_id("hr-value-big_four_winds").fill("2000")
    phone.get_by_test_id("start-submit").click()
    error = phone.get_by_test_id("hr-pattern-big_four_winds").locator(".field-error")
    expect(error).to_contain_text("0 to 1000")


@in_one_language("en")
def test_history_explains_a_house_dealer_extra_of_1_plus_n_and_its_cap(new_phone, api, lang):
    created = api.post("/api/sessions", data={
        "name": "1 + n", "ruleset": "taiwan", "players": PLAYERS, "stakes": {"base": 100, "per_tai": 20},
        "options": {}, "house_rules": {"dealer_extra": "1+n", "max_dealer_extra": 2}})
    assert created.status == 201, created.text()
    session = created.json()
    headers = {"Authorization": f"Bearer {session['token']}"}
    for body in ({"winners": [{"player": "Amy", "tai": 1}], "by": "self_draw"},
                 {"winners": [{"player": "Amy", "tai": 1}], "by": "self_draw"},
                 {"winners": [{"player": "Ben", "tai": 1}], "by": "discard", "discarder": "Amy"}):
        assert api.post(f"/api/sessions/{session['id']}/hands", data=body, headers=headers).status == 201
    phone = new_phone(locale=LOCALES[lang]).new_page()
    phone.goto(f"/#s={session['id']}&t={session['token']}")
    phone.get_by_test_id("nav-history").click()
    # 2. Dealer Amy on streak 1 self-draws 1 台: the extra 1 + 1 = 2 (not 3); 100 + 20 × (1 + 2) = 160 each.
    # 3. Ben wins 1 台 on dealer Amy's discard at streak 2: 1 + 2 = 3, capped at 2; 100 + 20 × 3 = 160.
    second, third = phone.get_by_test_id("hand-2-lines"), phone.get_by_test_id("hand-3-lines")
    if lang == "en":
        expect(second.locator("li").first).to_contain_text(
            "dealer extra, Amy on streak 1: 1 + 1 = 2 台 × 20 = 40")
        expect(third).to_contain_text("dealer extra, Amy on streak 2: 1 + 2 = 3, capped at 2 台 × 20 = 40")
    else:
        expect(second.locator("li").first).to_contain_text("莊家台：Amy 連1，1 + 1 = 2 台 × 20 = 40")
        expect(third).to_contain_text("莊家台：Amy 連2，1 + 2 = 3，上限 2 台 × 20 = 40")
    screenshot(phone, f"house-rules-dealer-extra-{lang}", full_page=True)
