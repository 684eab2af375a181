"""A Shanghai (清混碰) evening: dice and 荒番, 三口 pairs, the discarder ready, several winners.

底分 10; a share is points × 底分, doubled in a 荒番 hand (RULES.md §7). Amy deals first;
seats go Amy, Ben, Cat, Dan; the winner deals next.
"""
import re

from playwright.sync_api import expect

from tests.e2e.steps import (
    api_get, begin_win, choose, expect_totals, screenshot, start_evening, tap_tiles, to_table,
)


def start_shanghai(phone):
    session = start_evening(phone, ruleset="shanghai", stakes={"base": 10})
    to_table(phone)
    expect(phone.get_by_test_id("wasteland")).to_have_text("荒番 0")
    return session


def throw_dice(phone, first, second):
    choose(phone, "die-0", str(first))
    choose(phone, "die-1", str(second))


def test_dice_three_mouth_ready_discarder_and_two_winners(phone, api):
    session = start_shanghai(phone)

    # 1. Dice 1-4: H = 1, a 荒番 hand. Amy self-draws 4 points: each pays 4 × 10 × 2 = 80. Then H = 0.
    begin_win(phone, "Amy", None)
    phone.get_by_test_id("quick-0").fill("4")
    throw_dice(phone, 1, 4)
    screenshot(phone, "50-shanghai-extras")
    phone.get_by_test_id("win-submit").click()
    expect_totals(phone, ["+240", "-80", "-80", "-80"])
    expect(phone.get_by_test_id("wasteland")).to_have_text("荒番 0")

    # 2. Dice 2-3 add nothing; the draw makes H = 1. Amy keeps the deal.
    phone.get_by_test_id("btn-draw").click()
    throw_dice(phone, 2, 3)
    phone.get_by_test_id("draw-submit").click()
    expect(phone.get_by_test_id("wasteland")).to_have_text("荒番 1")

    # 3. Ben self-draws 2 points in a 荒番 hand (share 2 × 10 × 2 = 40) with a 三口 relation to Dan:
    #    Dan alone pays five shares, 200. H = 0; Ben deals next.
    begin_win(phone, "Ben", None)
    phone.get_by_test_id("quick-0").fill("2")
    choose(phone, "three-mouth-pick", "Ben")
    choose(phone, "three-mouth-pick", "Dan")
    expect(phone.get_by_test_id("pair-0")).to_contain_text("Ben ⇄ Dan")
    phone.get_by_test_id("win-submit").click()
    expect_totals(phone, ["+240", "+120", "-80", "-280"])
    expect(phone.get_by_test_id("wasteland")).to_have_text("荒番 0")
    expect(phone.get_by_test_id("seat-1").get_by_test_id("dealer")).to_be_visible()

    # 4. Cat's discard pays Amy and Dan, 3 points each: 30 + 30. Dan, the first winner after Cat, deals.
    phone.get_by_test_id("btn-win").click()
    choose(phone, "pick-winner", "Amy")
    choose(phone, "pick-winner", "Dan")
    choose(phone, "pick-discarder", "Cat")
    phone.get_by_test_id("quick-0").fill("3")
    phone.get_by_test_id("quick-1").fill("3")
    screenshot(phone, "51-shanghai-two-winners")
    phone.get_by_test_id("win-submit").click()
    expect_totals(phone, ["+270", "+120", "-140", "-250"])
    expect(phone.get_by_test_id("seat-3").get_by_test_id("dealer")).to_be_visible()

    # 5. Amy wins 2 points on Ben's discard; Amy and Cat are 三口; Ben was ready:
    #    Ben and Cat pay one share each, 20.
    begin_win(phone, "Amy", "Ben")
    phone.get_by_test_id("quick-0").fill("2")
    choose(phone, "three-mouth-pick", "Amy")
    choose(phone, "three-mouth-pick", "Cat")
    phone.get_by_test_id("discarder-ready").check()
    phone.get_by_test_id("win-submit").click()
    expect_totals(phone, ["+310", "+100", "-160", "-250"])

    hands = api_get(api, session, "/hands")
    assert [hand["body"] for hand in hands] == [
        {"winners": [{"player": "Amy", "points": 4}], "by": "self_draw", "dice": [1, 4]},
        {"draw": True, "reason": "exhausted", "dice": [2, 3]},
        {"winners": [{"player": "Ben", "points": 2}], "by": "self_draw", "three_mouth": [["Ben", "Dan"]]},
        {"winners": [{"player": "Amy", "points": 3}, {"player": "Dan", "points": 3}], "by": "discard",
         "discarder": "Cat"},
        {"winners": [{"player": "Amy", "points": 2}], "by": "discard", "discarder": "Ben",
         "three_mouth": [["Amy", "Cat"]], "discarder_ready": True},
    ]
    assert api_get(api, session)["totals"] == {"Amy": 310, "Ben": 100, "Cat": -160, "Dan": -250}


def test_shanghai_hand_through_the_tile_picker(phone, api):
    session = start_shanghai(phone)
    begin_win(phone, "Amy", None)
    choose(phone, "entry-mode", "full")
    tap_tiles(phone, "111222333m4445m")
    choose(phone, "picker-target", "winning")
    tap_tiles(phone, "5m")
    expect(phone.get_by_test_id("tile-count")).to_have_text("Tiles in hand: 13 / 13")
    phone.get_by_test_id("win-submit").click()
    # 111 222 333 444m + 55m: all pungs in one suit, 清碰 2 勒 (it replaces 清一色 and 碰碰胡):
    # points = 10 × 2 = 20, a share of 20 × 10 = 200 from each of the three others.
    expect(phone.get_by_test_id("breakdown").locator('[data-pattern="full_flush_pungs"]')).to_have_text(
        re.compile(r"清碰\s*2 勒"))
    expect(phone.get_by_test_id("breakdown-total")).to_contain_text("→ 20 points")
    phone.get_by_test_id("preview").scroll_into_view_if_needed()
    screenshot(phone, "52-shanghai-breakdown")
    phone.get_by_test_id("win-submit").click()
    expect_totals(phone, ["+600", "-200", "-200", "-200"])
    [hand] = api_get(api, session, "/hands")
    assert hand["scores"][0]["points"] == 20
