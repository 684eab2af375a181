"""The House rules editor of an evening under way (RULES.md §8): from the next hand, or a correction with its money.

The evening (taiwan, 底 100 / 台 20, Amy deals first): hand 1 Amy wins 2 台 on
Cat's discard (extra 1 + 2×0 = 1: Cat pays 100 + 20 × 3 = 160), hand 2 Amy
self-draws 1 台 at streak 1 (extra 1 + 2×1 = 3: each pays 100 + 20 × 4 = 180).
Totals: Amy +700, Ben −180, Cat −340, Dan −180. The table then wants 連莊
1 + n. Screenshots at 390 px in 繁體, 简体 and English go to
tests/artifacts/house-rules-change-*.png.
"""
import pytest
from playwright.sync_api import expect

from tests.e2e.steps import PLAYERS, api_get, choose, expect_totals, in_one_language, quick_win, screenshot

LOCALES = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN"}
WORDS = {
    "en": {"next": "From the next hand (hand 3)", "correct": "Correct the whole evening",
           "show": "Show what the correction changes", "apply": "Correct every hand"},
    "zh-Hant": {"next": "從下一局起（第 3 局）", "correct": "更正整晚", "show": "先看更正後的金額", "apply": "更正每一局"},
    "zh-Hans": {"next": "从下一局起（第 3 局）", "correct": "更正整晚", "show": "先看更正后的金额", "apply": "更正每一局"},
}


def evening_of_two_hands(api):
    created = api.post("/api/sessions", data={"name": "連莊", "ruleset": "taiwan", "players": PLAYERS,
                                              "stakes": {"base": 100, "per_tai": 20}, "options": {}})
    assert created.status == 201, created.text()
    session = created.json()
    headers = {"Authorization": f"Bearer {session['token']}"}
    for body in ({"winners": [{"player": "Amy", "tai": 2}], "by": "discard", "discarder": "Cat"},
                 {"winners": [{"player": "Amy", "tai": 1}], "by": "self_draw"}):
        assert api.post(f"/api/sessions/{session['id']}/hands", data=body, headers=headers).status == 201
    return session


def open_editor(new_phone, session, lang):
    phone = new_phone(locale=LOCALES[lang]).new_page()
    phone.goto(f"/#s={session['id']}&t={session['token']}")
    expect_totals(phone, ["+700", "-180", "-340", "-180"])
    phone.get_by_test_id("nav-rules").click()
    return phone


@in_one_language("zh-Hans")
def test_a_correction_of_the_whole_evening_shows_its_money_before_it_is_applied(new_phone, api, lang):
    session = evening_of_two_hands(api)
    phone = open_editor(new_phone, session, lang)
    words = WORDS[lang]
    options = phone.get_by_test_id("rules-when-choice").locator("button")
    expect(options).to_have_count(2)
    expect(options.first).to_contain_text(words["next"])  # the usual case first, and chosen
    expect(options.first).to_have_attribute("aria-pressed", "true")
    expect(options.nth(1)).to_contain_text(words["correct"])
    phone.get_by_test_id("hr-dealer-extra").select_option("1+n")
    phone.get_by_test_id("rules-when").scroll_into_view_if_needed()
    screenshot(phone, f"house-rules-change-choice-{lang}")
    choose(phone, "rules-when-choice", "correct")
    submit = phone.get_by_test_id("rules-submit")
    expect(submit).to_have_text(words["show"])
    submit.click()
    # Under 1 + n hand 1 stays (streak 0: 1 either way); hand 2 at streak 1 becomes 1 + 1 = 2: each pays
    # 100 + 20 × 3 = 160, not 180. Totals after: Amy +640, Ben −160, Cat −320, Dan −160.
    preview = phone.get_by_test_id("rules-preview")
    expect(preview.get_by_test_id("change-2")).to_be_visible()
    expect(preview.get_by_test_id("change-1")).to_have_count(0)
    expect(preview.get_by_test_id("change-2-payments")).to_contain_text("+480")
    expect(preview.get_by_test_id("change-2-was")).to_contain_text("Amy +540")
    expect(preview.get_by_test_id("change-totals")).to_contain_text("Amy +640 (-60)")
    expect(submit).to_have_text(words["apply"])
    assert api_get(api, session)["totals"] == {"Amy": 700, "Ben": -180, "Cat": -340, "Dan": -180}  # not yet
    preview.evaluate("box => { box.scrollIntoView({block: 'start'}); window.scrollBy(0, -70); }")
    screenshot(phone, f"house-rules-change-preview-{lang}")
    submit.click()
    expect_totals(phone, ["+640", "-160", "-320", "-160"])
    assert api_get(api, session)["house_rules"] == {"dealer_extra": "1+n"}
    assert [line["action"] for line in api_get(api, session, "/audit")] == ["house_rules"]


def test_from_the_next_hand_keeps_the_hands_played_and_shows_in_history(new_phone, api):
    session = evening_of_two_hands(api)
    phone = open_editor(new_phone, session, "en")
    phone.get_by_test_id("hr-dealer-extra").select_option("1+n")
    submit = phone.get_by_test_id("rules-submit")
    expect(submit).to_have_text("Play these from hand 3")
    submit.click()
    expect_totals(phone, ["+700", "-180", "-340", "-180"])  # hands 1 and 2 keep their money
    # Hand 3: dealer Amy at streak 2 wins 1 台 on Ben's discard: 1 + n = 3 (not 1 + 2n = 5): 100 + 20 × 4 = 180.
    quick_win(phone, "Amy", "Ben", 1)
    expect_totals(phone, ["+880", "-360", "-340", "-180"])
    phone.get_by_test_id("nav-history").click()
    change = phone.get_by_test_id("rules-change-3")
    expect(change).to_contain_text("From hand 3:")
    expect(change).to_contain_text("Dealer extra (連莊) 1 + n")
    expect(phone.get_by_test_id("hand-list").locator(":scope > li").nth(1)).to_have_attribute("data-testid", "rules-change-3")
    screenshot(phone, "house-rules-change-history-en")
    changes = api_get(api, session)["house_rules_changes"]
    assert [(c["from_hand"], c["house_rules"]) for c in changes] == [(3, {"dealer_extra": "1+n"})]
