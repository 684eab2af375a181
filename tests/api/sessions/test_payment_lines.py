"""Why money moved: the `lines` of a hand (payer, payee, amount, reasons) for every kind of payment.

Each expected line is worked out by hand from RULES.md in the comments: §6
for the Taiwanese rule sets (a payer pays base + per_tai × (台 + dealer
extra), the extra 1 + 2n on a payment between the dealer and another
player), §7 for shanghai (shares × points × 底分, doubled in a 荒番 hand,
三口 relations changing who pays), §8 for house rules (the dealer extra
1 + n and its cap; a false win 詐胡: the offender pays each of the others
what they would get for a self-drawn hand of N 台, with the dealer extra when
the dealer is one of the two, or a fixed amount). Seats: Amy, Ben, Cat, Dan;
Amy deals first. Taiwanese stakes 底 100, 台 20; shanghai 底分 10.
"""
from tests.api.sessions.tables import Table, discard, self_draw

# taiwan: 123m 456m 789p 234s, an exposed 南 pung, waiting on 5s for the pair (as in test_hands).
SOUTH_PUNG = {"concealed": "123m456m789p234s5s", "melds": [{"kind": "pung", "tiles": "222z"}],
              "winning_tile": "5s"}
# shanghai 混一色 (0 番) + 門清 (1 番) with a 中 pung (2 花): (2 + 2) × 2¹ = 8 points.
HALF_FLUSH = {"concealed": "123m456m789m777z5m", "winning_tile": "5m"}


def lines_of(hand):
    """The lines as (payer, payee, amount, reason codes), after checking they add up to the payments."""
    book = dict.fromkeys(hand["payments"], 0)
    for line in hand["lines"]:
        book[line["payer"]] -= line["amount"]
        book[line["payee"]] += line["amount"]
    assert book == hand["payments"]
    return [(line["payer"], line["payee"], line["amount"], [reason["code"] for reason in line["reasons"]])
            for line in hand["lines"]]


def reason(line, code):
    """The reason `code` of a line, without its code."""
    [found] = [dict(r) for r in line["reasons"] if r["code"] == code]
    del found["code"]
    return found


def test_taiwan_lines_for_discard_self_draw_dealer_extra_and_robbed_kong(client):
    table = Table(client)
    hands = table.hands_ok(
        {"winners": [{"player": "Ben", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Cat"},
        self_draw("Ben", 2),
        discard("Amy", "Ben", 1),
        {"winners": [{"player": "Dan", "tai": 2}], "by": "robbing_kong", "discarder": "Ben"},
        self_draw("Cat", 1),
    )
    # 1. Amy deals (東局, 東 round); Ben sits 南, so his 南 pung is 門風, 1 台 (RULES §4), tile-entered.
    #    Cat discarded: 100 + 20 × 1 = 120; the dealer is not part of it, no extra. Ben deals next.
    assert lines_of(hands[0]) == [("Cat", "Ben", 120, ["discard", "base", "tai"])]
    assert reason(hands[0]["lines"][0], "base") == {"amount": 100}
    assert reason(hands[0]["lines"][0], "tai") == {
        "tai": 1, "per_tai": 20, "amount": 20,
        "patterns": [{"id": "seat_wind", "name": "門風", "value": 1}]}
    # 2. Dealer Ben (streak 0) self-draws 2 台: each of the three pays 100 + 20 × (2 + 1) = 160, the
    #    extra 1 + 2 × 0 = 1 台 on every payment (each is with the dealer). Ben keeps the deal, streak 1.
    assert lines_of(hands[1]) == [(payer, "Ben", 160, ["self_draw", "base", "tai", "dealer_extra"])
                                  for payer in ("Amy", "Cat", "Dan")]
    assert reason(hands[1]["lines"][0], "tai") == {"tai": 2, "per_tai": 20, "amount": 40, "patterns": None}
    assert reason(hands[1]["lines"][0], "dealer_extra") == {"dealer": "Ben", "streak": 0, "tai": 1, "per_tai": 20,
                                                                  "amount": 20}
    # 3. Amy wins 1 台 on dealer Ben's discard, streak 1: extra 1 + 2 × 1 = 3 台; 100 + 20 × (1 + 3) = 180.
    #    The deal passes to Cat (streak 0).
    assert lines_of(hands[2]) == [("Ben", "Amy", 180, ["discard", "base", "tai", "dealer_extra"])]
    assert reason(hands[2]["lines"][0], "dealer_extra") == {"dealer": "Ben", "streak": 1, "tai": 3, "per_tai": 20,
                                                                  "amount": 60}
    # 4. Dan robs Ben's kong, 2 台: the robbed Ben pays 100 + 20 × 2 = 140; dealer Cat is not part of it.
    #    The deal passes to Dan.
    assert lines_of(hands[3]) == [("Ben", "Dan", 140, ["robbing_kong", "base", "tai"])]
    # 5. Cat self-draws 1 台 while Dan deals (streak 0): Amy and Ben pay 100 + 20 = 120, dealer Dan
    #    100 + 20 × (1 + 1) = 140. Lines in seat order.
    assert lines_of(hands[4]) == [("Amy", "Cat", 120, ["self_draw", "base", "tai"]),
                                  ("Ben", "Cat", 120, ["self_draw", "base", "tai"]),
                                  ("Dan", "Cat", 140, ["self_draw", "base", "tai", "dealer_extra"])]


def test_taiwan_lines_under_a_tai_cap_without_the_dealer_extra(client):
    table = Table(client, options={"max_tai": 4, "dealer_bonus": False})
    [hand] = table.hands_ok(discard("Ben", "Amy", 6))
    # 6 台 capped to 4 (RULES §6): dealer Amy pays 100 + 20 × 4 = 180, no dealer extra (option off).
    assert lines_of(hand) == [("Amy", "Ben", 180, ["discard", "base", "tai"])]
    assert reason(hand["lines"][0], "tai") == {"tai": 4, "capped_from": 6, "per_tai": 20, "amount": 80,
                                               "patterns": None}


def test_taiwan_zz_lines_for_eight_flowers_seven_flowers_rob_and_several_winners(client):
    table = Table(client, ruleset="taiwan_zz", options={"multiple_winners": True})
    hands = table.hands_ok(
        {"winners": [{"player": "Ben", "tai": 8, "event": "eight_flowers"}], "by": "self_draw"},
        {"winners": [{"player": "Cat", "tai": 8, "event": "seven_flowers_rob"}], "by": "self_draw",
         "discarder": "Dan"},
        {"winners": [{"player": "Amy", "tai": 2}, {"player": "Dan", "tai": 3}], "by": "discard",
         "discarder": "Ben"},
    )
    # 1. 八仙過海, 8 台, paid as a self-draw: dealer Amy (streak 0) pays 100 + 20 × (8 + 1) = 280,
    #    Cat and Dan 100 + 20 × 8 = 260. Ben won off the deal: Ben deals next.
    assert lines_of(hands[0]) == [("Amy", "Ben", 280, ["eight_flowers", "base", "tai", "dealer_extra"]),
                                  ("Cat", "Ben", 260, ["eight_flowers", "base", "tai"]),
                                  ("Dan", "Ben", 260, ["eight_flowers", "base", "tai"])]
    # 2. 七搶一, 8 台: Dan, who holds the eighth flower, pays alone: 100 + 160 = 260 (dealer Ben not
    #    part of it). Cat deals next.
    assert lines_of(hands[1]) == [("Dan", "Cat", 260, ["seven_flowers_rob", "base", "tai"])]
    # 3. Two winners on Ben's discard, each paid separately; dealer Cat is part of neither:
    #    Amy 100 + 20 × 2 = 140, Dan 100 + 20 × 3 = 160.
    assert lines_of(hands[2]) == [("Ben", "Amy", 140, ["discard", "base", "tai"]),
                                  ("Ben", "Dan", 160, ["discard", "base", "tai"])]


def test_taiwan_zz_lines_for_discard_robbed_kong_and_a_dealer_self_draw(client):
    table = Table(client, ruleset="taiwan_zz")
    hands = table.hands_ok(
        discard("Cat", "Dan", 2),
        {"winners": [{"player": "Dan", "tai": 1}], "by": "robbing_kong", "discarder": "Ben"},
        self_draw("Cat", 3),
    )
    # 1. Cat wins 2 台 on Dan's discard, dealer Amy not part of it: 100 + 20 × 2 = 140. Ben deals next.
    assert lines_of(hands[0]) == [("Dan", "Cat", 140, ["discard", "base", "tai"])]
    # 2. Dan robs dealer Ben's kong (streak 0), 1 台: 100 + 20 × (1 + 1) = 140. Cat deals next.
    assert lines_of(hands[1]) == [("Ben", "Dan", 140, ["robbing_kong", "base", "tai", "dealer_extra"])]
    # 3. Dealer Cat (streak 0) self-draws 3 台: each pays 100 + 20 × (3 + 1) = 180.
    assert lines_of(hands[2]) == [(payer, "Cat", 180, ["self_draw", "base", "tai", "dealer_extra"])
                                  for payer in ("Amy", "Ben", "Dan")]


def test_shanghai_lines_for_two_winners_on_one_discard(client):
    table = Table(client, ruleset="shanghai")
    [hand] = table.hands_ok({"winners": [{"player": "Ben", "points": 2}, {"player": "Dan", "points": 3}],
                             "by": "discard", "discarder": "Cat"})
    # 一炮多響: each winner is paid one share by the discarder, H = 0: 2 × 10 = 20 and 3 × 10 = 30.
    assert lines_of(hand) == [("Cat", "Ben", 20, ["discard", "share", "shares"]),
                              ("Cat", "Dan", 30, ["discard", "share", "shares"])]


def test_shanghai_lines_for_self_draw_discard_robbed_kong_eight_flowers_and_wasteland(client):
    table = Table(client, ruleset="shanghai")
    hands = table.hands_ok(
        {"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "dice": [1, 1]},
        {"winners": [{"player": "Cat", "hand": HALF_FLUSH}], "by": "discard", "discarder": "Dan"},
        {"winners": [{"player": "Dan", "points": 4}], "by": "robbing_kong", "discarder": "Amy",
         "three_mouth": [["Dan", "Amy"]]},
        {"winners": [{"player": "Amy", "points": 40, "event": "eight_flowers"}], "by": "self_draw"},
    )
    # 1. Dice (1, 1) add 2 to the 荒番 counter: H = 2, a 荒番 hand. Ben self-draws 3 points:
    #    each other player pays one share, 3 × 10 × 2 = 60. After the win H = 1.
    self_drawn = ["self_draw", "share", "wasteland", "shares"]
    assert lines_of(hands[0]) == [(p, "Ben", 60, self_drawn) for p in ("Amy", "Cat", "Dan")]
    line = hands[0]["lines"][0]
    assert reason(line, "share") == {"points": 3, "base": 10, "amount": 30}
    assert reason(line, "wasteland") == {"counter": 2, "dice": [1, 1]}
    assert reason(line, "shares") == {"shares": 1}
    # 2. No dice, but H = 1 still: a 荒番 hand. Cat's tile-entered 混一色 + 門清 with a 中 pung,
    #    (2 花 + 2) × 2 = 8 points, on Dan's discard: 8 × 10 × 2 = 160. After the win H = 0.
    assert lines_of(hands[1]) == [("Dan", "Cat", 160, ["discard", "share", "wasteland", "shares"])]
    share = reason(hands[1]["lines"][0], "share")
    assert (share["points"], share["amount"], share["flowers"], share["lei"], share["fan"]) == (8, 80, 2, 0, 1)
    assert {"half_flush", "concealed"} <= {pattern["id"] for pattern in share["patterns"]}
    assert reason(hands[1]["lines"][0], "wasteland") == {"counter": 1, "dice": None}
    # 3. Dan robs Amy's kong, 4 points, H = 0: Amy pays three shares, 3 × 40 = 120; the 三口
    #    relation between them is ignored for a robbed kong (RULES §7).
    assert lines_of(hands[2]) == [("Amy", "Dan", 120, ["robbing_kong", "share", "shares"])]
    # 4. 八花 (40 points) is paid as a self-draw: each other player pays one share of 400.
    assert lines_of(hands[3]) == [(p, "Amy", 400, ["eight_flowers", "share", "shares"])
                                  for p in ("Ben", "Cat", "Dan")]


def test_shanghai_three_mouth_lines_say_who_pays_whose_share(client):
    table = Table(client, ruleset="shanghai")
    hands = table.hands_ok(
        {"winners": [{"player": "Ben", "points": 2}], "by": "self_draw", "three_mouth": [["Ben", "Dan"]]},
        {"winners": [{"player": "Cat", "points": 2}], "by": "discard", "discarder": "Amy",
         "three_mouth": [["Cat", "Amy"]]},
        {"winners": [{"player": "Dan", "points": 3}], "by": "discard", "discarder": "Amy",
         "three_mouth": [["Dan", "Ben"]], "discarder_ready": True},
        {"winners": [{"player": "Amy", "points": 1}], "by": "discard", "discarder": "Cat",
         "three_mouth": [["Amy", "Ben"]]},
        {"winners": [{"player": "Ben", "points": 40, "event": "eight_flowers"}], "by": "self_draw",
         "three_mouth": [["Ben", "Cat"]]},
    )
    # 1. Ben self-draws 2 points with a relation to Dan: Dan pays five shares, 5 × 20 = 100; nobody else.
    assert lines_of(hands[0]) == [("Dan", "Ben", 100, ["self_draw", "three_mouth_self_draw", "share", "shares"])]
    assert reason(hands[0]["lines"][0], "three_mouth_self_draw") == {"related": "Dan", "shares": 5}
    # 2. Related Amy discards to Cat, 2 points: two shares, 2 × 20 = 40.
    assert lines_of(hands[1]) == [("Amy", "Cat", 40, ["discard", "three_mouth_discard", "share", "shares"])]
    # 3. Unrelated Amy, ready, discards to Dan (3 points), who is related to Ben: Amy and Ben pay one
    #    share each, 30; Ben pays without having discarded, and his reason names the discarder.
    ready = ["discard", "three_mouth_ready", "share", "shares"]
    assert lines_of(hands[2]) == [("Amy", "Dan", 30, ready), ("Ben", "Dan", 30, ready)]
    assert reason(hands[2]["lines"][0], "three_mouth_ready") == {"discarder": "Amy", "related": False, "shares": 1}
    assert reason(hands[2]["lines"][1], "three_mouth_ready") == {"discarder": "Amy", "related": True, "shares": 1}
    # 4. Unrelated Cat, not ready, discards to Amy (1 point), related to Ben: Cat pays two shares alone, 20.
    assert lines_of(hands[3]) == [("Cat", "Amy", 20, ["discard", "three_mouth_not_ready", "share", "shares"])]
    # 5. 八花 (40 points) by Ben, related to Cat: paid as a self-draw, so Cat pays five shares, 5 × 400 = 2000.
    assert lines_of(hands[4]) == [
        ("Cat", "Ben", 2000, ["eight_flowers", "three_mouth_self_draw", "share", "shares"])]


def test_a_draw_and_a_voided_hand_have_no_lines(client):
    table = Table(client)
    table.hands_ok({"draw": True, "reason": "exhausted"}, discard("Ben", "Cat", 1))
    assert table.void(2).get_json()["lines"] == []
    assert [hand["lines"] for hand in table.hands()] == [[], []]


def test_taiwan_lines_under_a_house_dealer_extra_of_1_plus_n_with_a_cap(client):
    table = Table(client, house_rules={"dealer_extra": "1+n", "max_dealer_extra": 2})
    hands = table.hands_ok(self_draw("Amy", 1), self_draw("Amy", 1), discard("Ben", "Amy", 1))
    # 1. Dealer Amy, streak 0, self-draws 1 台: extra 1 + 0 = 1; each pays 100 + 20 × (1 + 1) = 140.
    assert lines_of(hands[0]) == [(payer, "Amy", 140, ["self_draw", "base", "tai", "dealer_extra"])
                                  for payer in ("Ben", "Cat", "Dan")]
    assert reason(hands[0]["lines"][0], "dealer_extra") == {
        "dealer": "Amy", "streak": 0, "tai": 1, "per_tai": 20, "amount": 20, "formula": "1+n"}
    # 2. Amy again, streak 1: 1 + 1 = 2 (not 1 + 2 × 1 = 3), at the cap of 2; 100 + 20 × (1 + 2) = 160 each.
    assert lines_of(hands[1]) == [(payer, "Amy", 160, ["self_draw", "base", "tai", "dealer_extra"])
                                  for payer in ("Ben", "Cat", "Dan")]
    assert reason(hands[1]["lines"][0], "dealer_extra") == {
        "dealer": "Amy", "streak": 1, "tai": 2, "per_tai": 20, "amount": 40, "formula": "1+n"}
    # 3. Ben wins 1 台 on dealer Amy's discard, streak 2: 1 + 2 = 3, capped at 2; 100 + 20 × (1 + 2) = 160.
    assert lines_of(hands[2]) == [("Amy", "Ben", 160, ["discard", "base", "tai", "dealer_extra"])]
    assert reason(hands[2]["lines"][0], "dealer_extra") == {
        "dealer": "Amy", "streak": 2, "tai": 2, "capped_from": 3, "per_tai": 20, "amount": 40, "formula": "1+n"}


def test_taiwan_lines_of_a_false_win_by_a_player_and_by_the_dealer(client):
    table = Table(client, house_rules={"dealer_extra": "1+n"})
    hands = table.hands_ok({"false_win": "Cat"}, self_draw("Amy", 1), {"false_win": "Amy"})
    # 1. Cat's false win while Amy deals (streak 0), penalty as a self-drawn 8 台 (no max_tai: RULES §8):
    #    Cat pays dealer Amy 100 + 20 × (8 + 1) = 280, Ben and Dan 100 + 20 × 8 = 260 each.
    assert lines_of(hands[0]) == [("Cat", "Amy", 280, ["false_win", "base", "tai", "dealer_extra"]),
                                  ("Cat", "Ben", 260, ["false_win", "base", "tai"]),
                                  ("Cat", "Dan", 260, ["false_win", "base", "tai"])]
    assert reason(hands[0]["lines"][1], "tai") == {"tai": 8, "per_tai": 20, "amount": 160, "patterns": None}
    # 2. The false win moved nothing on: Amy still deals at streak 0, self-draws 1 台 (100 + 20 × 2 = 140 each)
    #    and keeps the deal, streak 1.
    assert (hands[1]["dealer"], hands[1]["streak"]) == ("Amy", 0)
    # 3. Dealer Amy's false win at streak 1: the extra 1 + 1 = 2 on every payment (she is one of each two):
    #    100 + 20 × (8 + 2) = 300 to each of the others.
    assert lines_of(hands[2]) == [("Amy", payee, 300, ["false_win", "base", "tai", "dealer_extra"])
                                  for payee in ("Ben", "Cat", "Dan")]
    assert reason(hands[2]["lines"][0], "dealer_extra") == {
        "dealer": "Amy", "streak": 1, "tai": 2, "per_tai": 20, "amount": 40, "formula": "1+n"}


def test_lines_of_a_false_win_paid_as_a_fixed_amount_and_in_shanghai(client):
    taiwan = Table(client, house_rules={"false_win": {"amount": 300}})
    [fixed] = taiwan.hands_ok({"false_win": "Ben"})
    # Ben pays each of the others the fixed 300, whoever deals.
    assert lines_of(fixed) == [("Ben", payee, 300, ["false_win", "false_win_amount"])
                               for payee in ("Amy", "Cat", "Dan")]
    assert reason(fixed["lines"][0], "false_win_amount") == {"amount": 300}
    shanghai = Table(client, ruleset="shanghai")
    [_, hand] = shanghai.hands_ok({"draw": True, "reason": "exhausted"}, {"false_win": "Dan"})
    # After a draw the 荒番 counter is 1, yet shanghai's default penalty, a self-drawn 10 points, is never
    # doubled by 荒番: 10 × 底分 10 = 100 to each.
    assert hand["wasteland"] == 1
    assert lines_of(hand) == [("Dan", payee, 100, ["false_win", "share"]) for payee in ("Amy", "Ben", "Cat")]
    assert reason(hand["lines"][0], "share") == {"points": 10, "base": 10, "amount": 100}
