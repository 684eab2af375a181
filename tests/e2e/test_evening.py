"""An evening at a Taiwanese table on the phone page: start, wins, draws, voids, corrections, seats.

Stakes are 底 100 / 台 20 with the dealer extra on (RULES.md §6): a payer pays
100 + 20 × (台 + dealer extra), the extra being 1 + 2n on payments with the
dealer (n = the dealer's streak). Amy deals first; seats go Amy, Ben, Cat, Dan.
"""
import re

from playwright.sync_api import expect

from tests.e2e.steps import (
    PLAYERS, api_get, begin_win, choose, expect_totals, quick_win, screenshot, start_evening,
    tap_tiles, to_table,
)

# 123m 456m 789p 234s 56s 55p + 7s on a discard: 門清 1 + 平胡 2 (two-sided 56s wait, no honours or flowers).
ALL_CHOWS_HAND = "123m456m789p234s56s55p"


def test_start_an_evening_shows_the_table(phone, api):
    screenshot(phone, "01-start")
    session = start_evening(phone)
    expect(phone.get_by_test_id("qr-image")).to_be_visible()
    screenshot(phone, "02-share")
    to_table(phone)
    for seat, player in enumerate(PLAYERS):
        expect(phone.get_by_test_id(f"seat-{seat}")).to_contain_text(player)
    expect(phone.get_by_test_id("seat-0").get_by_test_id("dealer")).to_be_visible()
    expect(phone.get_by_test_id("winds")).to_have_text("Round 東Deal 東")
    expect_totals(phone, ["0", "0", "0", "0"])
    screenshot(phone, "03-table")
    data = api_get(api, session)
    assert data["players"] == PLAYERS
    assert data["stakes"] == {"base": 100, "per_tai": 20}
    assert data["name"] == "Friday"


def test_quick_win_pays_and_passes_the_deal(phone, api):
    session = start_evening(phone)
    to_table(phone)
    begin_win(phone, "Ben", "Cat")
    phone.get_by_test_id("quick-0").fill("3")
    screenshot(phone, "04-win-quick")
    phone.get_by_test_id("win-submit").click()
    # Neither Ben nor Cat deals: Cat pays 100 + 20 × 3 = 160.
    expect_totals(phone, ["0", "+160", "-160", "0"])
    expect(phone.get_by_test_id("seat-1").get_by_test_id("dealer")).to_be_visible()
    expect(phone.get_by_test_id("winds")).to_have_text("Round 東Deal 南")
    screenshot(phone, "05-table-after-win")
    [hand] = api_get(api, session, "/hands")
    assert hand["body"] == {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"}
    assert hand["payments"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}


def test_full_hand_through_the_tile_picker(phone, api):
    session = start_evening(phone)
    to_table(phone)
    begin_win(phone, "Amy", "Cat")
    choose(phone, "entry-mode", "full")
    tap_tiles(phone, ALL_CHOWS_HAND)
    choose(phone, "picker-target", "winning")
    tap_tiles(phone, "7s")
    expect(phone.get_by_test_id("tile-count")).to_have_text("Tiles in hand: 16 / 16")
    expect(phone.get_by_test_id("win-submit")).to_have_text("Count")
    phone.get_by_test_id("win-submit").click()
    breakdown = phone.get_by_test_id("breakdown")
    expect(breakdown.locator("li")).to_have_count(2)
    expect(breakdown.locator('[data-pattern="concealed"]')).to_have_text(re.compile(r"門清\s*1 台"))
    expect(breakdown.locator('[data-pattern="all_chows"]')).to_have_text(re.compile(r"平胡\s*2 台"))
    expect(phone.get_by_test_id("breakdown-total")).to_have_text("Total: 3 台")
    phone.get_by_test_id("preview").scroll_into_view_if_needed()
    screenshot(phone, "06-win-tiles-breakdown")
    phone.get_by_test_id("win-submit").click()
    # Amy deals (streak 0): Cat pays 100 + 20 × (3 + 1) = 180; Amy keeps the deal.
    expect_totals(phone, ["+180", "0", "-180", "0"])
    expect(phone.get_by_test_id("dealer")).to_have_text("Dealer streak 1")
    [hand] = api_get(api, session, "/hands")
    winner = hand["body"]["winners"][0]
    assert winner["hand"]["winning_tile"] == "7s"
    assert "".join(winner["hand"]["concealed"]) == "1m2m3m4m5m6m7p8p9p2s3s4s5s6s5p5p"
    assert hand["scores"][0]["tai"] == 3
    assert hand["payments"] == {"Amy": 180, "Ben": 0, "Cat": -180, "Dan": 0}


def test_picker_melds_kong_and_flowers(phone, api):
    """Melds go in with one tap each; a kong can be turned concealed; flowers toggle."""
    session = start_evening(phone)
    to_table(phone)
    begin_win(phone, "Ben", None)
    choose(phone, "entry-mode", "full")
    choose(phone, "picker-target", "meld")
    choose(phone, "meld-kind", "kong")
    tap_tiles(phone, "1z")
    phone.get_by_test_id("meld-0-concealed").click()
    # After each meld the picker is back on single tiles: the meld target is chosen again.
    choose(phone, "picker-target", "meld")
    choose(phone, "meld-kind", "pung")
    tap_tiles(phone, "7p")
    choose(phone, "picker-target", "meld")
    choose(phone, "meld-kind", "chow")
    tap_tiles(phone, "3s")
    tap_tiles(phone, "123m456m5s")
    tap_tiles(phone, "2f")
    choose(phone, "picker-target", "winning")
    tap_tiles(phone, "5s")
    expect(phone.get_by_test_id("tile-count")).to_have_text("Tiles in hand: 7 / 7")
    expect(phone.get_by_test_id("meld-0")).to_contain_text("Concealed kong")
    phone.get_by_test_id("win-submit").click()
    # Ben sits 南 in 東風東局 (Amy deals). Melds, so 自摸 1 and no 門清; 夏 is 南's flower: 花牌 1;
    # the 東 kong is the round wind (風圈 1) and the 局 wind (風牌 1), not Ben's seat wind. Total 4.
    breakdown = phone.get_by_test_id("breakdown")
    expect(breakdown.locator("li")).to_have_count(4)
    expect(breakdown.locator('[data-pattern="self_draw"]')).to_have_text(re.compile(r"自摸\s*1 台"))
    expect(breakdown.locator('[data-pattern="seat_flower"]')).to_have_text(re.compile(r"花牌\s*1 台"))
    expect(breakdown.locator('[data-pattern="round_wind"]')).to_have_text(re.compile(r"風圈\s*1 台"))
    expect(breakdown.locator('[data-pattern="hand_wind"]')).to_have_text(re.compile(r"風牌\s*1 台"))
    expect(phone.get_by_test_id("breakdown-total")).to_have_text("Total: 4 台")
    phone.get_by_test_id("picker").scroll_into_view_if_needed()
    screenshot(phone, "07-picker-melds")
    phone.get_by_test_id("win-submit").click()
    # Self-draw: Cat and Dan pay 100 + 20 × 4 = 180; Amy deals (streak 0): 100 + 20 × (4 + 1) = 200.
    expect_totals(phone, ["-200", "+560", "-180", "-180"])
    [hand] = api_get(api, session, "/hands")
    melds = hand["body"]["winners"][0]["hand"]["melds"]
    assert melds == [{"kind": "kong", "tiles": ["1z"] * 4, "concealed": True},
                     {"kind": "pung", "tiles": ["7p"] * 3},
                     {"kind": "chow", "tiles": ["3s", "4s", "5s"]}]
    assert hand["body"]["winners"][0]["hand"]["flowers"] == ["2f"]


def test_draw_keeps_the_deal(phone, api):
    session = start_evening(phone)
    to_table(phone)
    phone.get_by_test_id("btn-draw").click()
    screenshot(phone, "08-draw")
    choose(phone, "draw-reason", "exhausted")
    phone.get_by_test_id("draw-submit").click()
    expect(phone.get_by_test_id("seat-0").get_by_test_id("dealer")).to_have_text("Dealer streak 1")
    expect_totals(phone, ["0", "0", "0", "0"])
    [hand] = api_get(api, session, "/hands")
    assert hand["body"] == {"draw": True, "reason": "exhausted"}
    assert api_get(api, session)["state"]["streak"] == 1


def test_void_a_hand_after_confirming(phone, api):
    session = start_evening(phone)
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    expect_totals(phone, ["0", "+160", "-160", "0"])
    phone.get_by_test_id("nav-history").click()
    hand = phone.get_by_test_id("hand-1")
    hand.locator(".hand-head").click()
    hand.get_by_test_id("hand-void").click()
    screenshot(phone, "09-void-confirm")
    phone.get_by_test_id("confirm-no").click()
    assert api_get(api, session, "/hands")[0]["void"] is False
    hand.get_by_test_id("hand-void").click()
    phone.get_by_test_id("confirm-yes").click()
    expect(phone.get_by_test_id("hand-1")).to_contain_text("Voided")
    screenshot(phone, "10-history-voided")
    assert api_get(api, session, "/hands")[0]["void"] is True
    data = api_get(api, session)
    assert data["totals"] == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}
    assert data["state"]["dealer"] == "Amy"
    phone.get_by_role("button", name="Back to the table").click()
    expect_totals(phone, ["0", "0", "0", "0"])
    expect(phone.get_by_test_id("seat-0").get_by_test_id("dealer")).to_be_visible()


def test_correct_a_hand(phone, api):
    session = start_evening(phone)
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    expect_totals(phone, ["0", "+160", "-160", "0"])
    phone.get_by_test_id("nav-history").click()
    phone.get_by_test_id("hand-1").locator(".hand-head").click()
    phone.get_by_test_id("hand-correct").click()
    expect(phone.get_by_test_id("quick-0")).to_have_value("3")
    phone.get_by_test_id("quick-0").fill("5")
    phone.get_by_test_id("win-submit").click()
    expect(phone.get_by_test_id("confirm-dialog")).to_contain_text("Replace hand 1")
    phone.get_by_test_id("confirm-yes").click()
    # Cat pays 100 + 20 × 5 = 200.
    expect(phone.get_by_test_id("hand-1")).to_contain_text("Ben 5台")
    expect(phone.get_by_test_id("hand-1")).to_contain_text("Cat -200")
    [hand] = api_get(api, session, "/hands")
    assert hand["body"]["winners"] == [{"player": "Ben", "tai": 5}]
    assert api_get(api, session)["totals"] == {"Amy": 0, "Ben": 200, "Cat": -200, "Dan": 0}


def test_change_seat(phone, api):
    session = start_evening(phone)
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    expect_totals(phone, ["0", "+160", "-160", "0"])
    phone.get_by_test_id("nav-seat").click()
    choose(phone, "pick-seat", "2")
    phone.get_by_test_id("seat-player").fill("Eve")
    screenshot(phone, "11-change-seat")
    phone.get_by_test_id("seat-submit").click()
    expect(phone.get_by_test_id("seat-2")).to_contain_text("Eve")
    expect(phone.get_by_test_id("benched")).to_contain_text("Cat -160")
    # Eve discards to Dan, 2 台; Ben deals (streak 0), neither pays him: 100 + 20 × 2 = 140.
    quick_win(phone, "Dan", "Eve", 2)
    expect_totals(phone, ["0", "+160", "-140", "+140"])
    assert api_get(api, session)["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 140, "Eve": -140}
    screenshot(phone, "12-table-substitute")


def test_errors_show_next_to_their_field_and_keep_the_input(phone, api):
    start_evening_form = phone.get_by_test_id("start-form")
    for seat, player in enumerate(["Amy", "Amy", "Cat", "Dan"]):
        phone.get_by_test_id(f"player-{seat}").fill(player)
    phone.get_by_test_id("start-submit").click()
    error = start_evening_form.locator('[data-error-for="players.1"]')
    expect(error).to_have_text("Amy is listed twice.")
    expect(phone.get_by_test_id("player-3")).to_have_value("Dan")
    screenshot(phone, "13-error-next-to-field")
    phone.get_by_test_id("player-1").fill("Ben")
    phone.get_by_test_id("stake-base").fill("0")
    phone.get_by_test_id("start-submit").click()
    expect(start_evening_form.locator('[data-error-for="stakes.base"]')).to_have_text(
        "Enter a whole number from 1 for base.")
    expect(error).to_be_hidden()


def test_win_form_rejections_keep_what_was_entered(phone, api):
    session = start_evening(phone)
    to_table(phone)
    begin_win(phone, "Ben", "Cat")
    phone.get_by_test_id("win-submit").click()
    expect(phone.locator('[data-error-for="winners.0.tai"]')).to_have_text("Enter a whole number.")
    choose(phone, "entry-mode", "full")
    tap_tiles(phone, "123m")
    choose(phone, "picker-target", "winning")
    tap_tiles(phone, "4m")
    phone.get_by_test_id("win-submit").click()
    hand_error = phone.locator('[data-error-for="winners.0.hand"]')
    expect(hand_error).to_have_text("The hand needs 16 tiles before the winning tile; it has 3.")
    expect(phone.get_by_test_id("hand-tiles").locator(".tile")).to_have_count(3)
    assert api_get(api, session, "/hands") == []


def test_language_switch_is_remembered(phone):
    expect(phone.locator("h1")).to_have_text("New evening")
    phone.get_by_test_id("lang").click()
    phone.get_by_test_id("lang-zh").click()
    expect(phone.locator("h1")).to_have_text("開新牌局")
    phone.reload()
    expect(phone.locator("h1")).to_have_text("開新牌局")
    expect(phone.locator("html")).to_have_attribute("lang", "zh-Hant")
    start_evening(phone)
    to_table(phone)
    expect(phone.get_by_test_id("btn-win")).to_have_text("胡")
    expect(phone.get_by_test_id("winds")).to_have_text("東風東局")
    screenshot(phone, "14-table-zh")


def test_several_winners_when_the_table_allows_it(phone, api):
    session = start_evening(phone, options={"multiple_winners": True})
    to_table(phone)
    phone.get_by_test_id("btn-win").click()
    choose(phone, "pick-winner", "Ben")
    choose(phone, "pick-winner", "Dan")
    choose(phone, "pick-discarder", "Cat")
    phone.get_by_test_id("quick-0").fill("2")
    phone.get_by_test_id("quick-1").fill("1")
    phone.get_by_test_id("win-submit").click()
    # Cat pays each winner separately: Ben 100 + 20 × 2 = 140, Dan 100 + 20 × 1 = 120.
    expect_totals(phone, ["0", "+140", "-260", "+120"])
    assert api_get(api, session)["options"]["multiple_winners"] is True


def test_one_winner_only_without_the_option(phone):
    start_evening(phone)
    to_table(phone)
    phone.get_by_test_id("btn-win").click()
    choose(phone, "pick-winner", "Ben")
    choose(phone, "pick-winner", "Dan")
    selected = phone.get_by_test_id("pick-winner").locator('[aria-pressed="true"]')
    expect(selected).to_have_count(1)
    expect(selected).to_contain_text("Dan")


def test_another_evening_and_back(phone):
    first = start_evening(phone, name="Friday")
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    phone.get_by_test_id("nav-start").click()
    start_evening(phone, players=["Eve", "Fay", "Gus", "Hal"], name="Saturday")
    to_table(phone)
    expect(phone.get_by_test_id("seat-0")).to_contain_text("Eve")
    phone.get_by_test_id("nav-start").click()
    known = phone.get_by_test_id("known-sessions")
    expect(known).to_contain_text("Friday")
    expect(known).to_contain_text("Saturday")
    screenshot(phone, "15-start-known-evenings")
    known.locator(".known").filter(has_text="Saturday").get_by_role("button", name="Forget on this phone").click()
    expect(phone.get_by_test_id("confirm-dialog")).to_contain_text("Forget Saturday")
    phone.get_by_test_id("confirm-yes").click()
    expect(phone.get_by_test_id("known-sessions")).not_to_contain_text("Saturday")
    phone.get_by_test_id("known-sessions").get_by_role("button", name="Friday").click()
    expect_totals(phone, ["0", "+160", "-160", "0"])
    assert phone.evaluate("localStorage.getItem('taizhang.current')") == first["id"]


def test_eight_flowers_needs_only_the_flowers(phone, api):
    """taiwan_zz 八仙過海: all eight flowers, scored alone (8 台) and paid as a self-draw."""
    session = start_evening(phone, ruleset="taiwan_zz")
    to_table(phone)
    begin_win(phone, "Ben", None)
    choose(phone, "entry-mode", "full")
    tap_tiles(phone, "12345678f")
    phone.get_by_test_id("flag-event").select_option("eight_flowers")
    phone.get_by_test_id("win-submit").click()
    breakdown = phone.get_by_test_id("breakdown")
    expect(breakdown.locator("li")).to_have_count(1)
    expect(breakdown.locator('[data-pattern="eight_flowers"]')).to_have_text(re.compile(r"八仙過海\s*8 台"))
    phone.get_by_test_id("win-submit").click()
    # Cat and Dan pay 100 + 20 × 8 = 260; Amy deals (streak 0): 100 + 20 × (8 + 1) = 280.
    expect_totals(phone, ["-280", "+800", "-260", "-260"])
    [hand] = api_get(api, session, "/hands")
    assert "winning_tile" not in hand["body"]["winners"][0]["hand"]
