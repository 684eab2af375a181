"""Payments worked by hand from RULES.md §6 (Taiwanese) and §7 (Shanghai).

Seats are Amy, Ben, Cat, Dan in turn order. Taiwanese stakes: base 100,
per_tai 20. Shanghai: 底分 10. Every expected amount is written out with its
arithmetic; none is copied from the code.
"""

import itertools

import pytest

from ledger.entries import HandEntry, Winner
from ledger.errors import InvalidRequest
from ledger.payments import Stakes, dice_wasteland, shanghai_payments, stakes_from, taiwan_payments
from ledger.table import Table

SEATS = ("Amy", "Ben", "Cat", "Dan")
TAIWAN = Stakes(base=100, per_tai=20)
SHANGHAI = Stakes(base=10)


def taiwan(entry, dealer="Amy", streak=0, **options):
    payments = taiwan_payments(entry, SEATS, dealer, streak, TAIWAN, options)
    assert sum(payments.values()) == 0
    assert all(type(amount) is int for amount in payments.values())
    return payments


def shanghai(entry, wasteland_hand=False):
    payments = shanghai_payments(entry, SEATS, SHANGHAI, wasteland_hand)
    assert sum(payments.values()) == 0
    assert all(type(amount) is int for amount in payments.values())
    return payments


def won(player, value, by, discarder=None, **extra):
    return HandEntry(winners=(Winner(player, value),), by=by, discarder=discarder, **extra)


# -- Taiwanese ------------------------------------------------------------------


def test_dealer_self_draw_streak_0_every_other_pays_the_dealer_extra():
    # each pays 100 + 20 × (3 + 1) = 180; Amy gets 3 × 180 = 540
    assert taiwan(won("Amy", 3, "self_draw")) == {"Amy": 540, "Ben": -180, "Cat": -180, "Dan": -180}


def test_dealer_self_draw_streak_2_extra_is_1_plus_2n():
    # extra = 1 + 2 × 2 = 5; each pays 100 + 20 × (3 + 5) = 260; Amy 780
    assert taiwan(won("Amy", 3, "self_draw"), streak=2) == {
        "Amy": 780, "Ben": -260, "Cat": -260, "Dan": -260,
    }


def test_non_dealer_self_draw_only_the_dealer_pays_the_extra():
    # Amy (dealer, streak 0): 100 + 20 × (2 + 1) = 160; Cat, Dan: 100 + 20 × 2 = 140
    # Ben: 160 + 140 + 140 = 440
    assert taiwan(won("Ben", 2, "self_draw")) == {"Amy": -160, "Ben": 440, "Cat": -140, "Dan": -140}


def test_non_dealer_self_draw_with_dealer_streak_2():
    # Amy: 100 + 20 × (2 + 5) = 240; Cat, Dan: 140; Ben: 240 + 280 = 520
    assert taiwan(won("Ben", 2, "self_draw"), streak=2) == {
        "Amy": -240, "Ben": 520, "Cat": -140, "Dan": -140,
    }


def test_discard_by_the_dealer_adds_the_extra():
    # Amy deals with streak 1: extra 3; she pays 100 + 20 × (4 + 3) = 240
    assert taiwan(won("Ben", 4, "discard", "Amy"), streak=1) == {"Amy": -240, "Ben": 240, "Cat": 0, "Dan": 0}


def test_discard_to_the_dealer_adds_the_extra():
    # Cat pays the dealer 100 + 20 × (4 + 1) = 200
    assert taiwan(won("Amy", 4, "discard", "Cat")) == {"Amy": 200, "Ben": 0, "Cat": -200, "Dan": 0}


def test_discard_between_non_dealers_has_no_extra():
    # Cat pays 100 + 20 × 4 = 180, whatever the dealer's streak
    assert taiwan(won("Ben", 4, "discard", "Cat"), streak=3) == {"Amy": 0, "Ben": 180, "Cat": -180, "Dan": 0}


def test_robbed_kong_the_robbed_player_pays():
    # Dan's kong is robbed: Dan pays 100 + 20 × 2 = 140
    assert taiwan(won("Cat", 2, "robbing_kong", "Dan")) == {"Amy": 0, "Ben": 0, "Cat": 140, "Dan": -140}


def test_robbed_kong_of_the_dealer_adds_the_extra():
    # Amy (streak 1, extra 3) is robbed: 100 + 20 × (2 + 3) = 200
    assert taiwan(won("Cat", 2, "robbing_kong", "Amy"), streak=1) == {
        "Amy": -200, "Ben": 0, "Cat": 200, "Dan": 0,
    }


def test_eight_flowers_three_others_pay_whatever_by_says():
    entry = HandEntry(winners=(Winner("Ben", 8, "eight_flowers"),), by="discard", discarder="Cat")
    # Amy (dealer): 100 + 20 × (8 + 1) = 280; Cat, Dan: 100 + 20 × 8 = 260; Ben 800
    assert taiwan(entry) == {"Amy": -280, "Ben": 800, "Cat": -260, "Dan": -260}


def test_seven_flowers_rob_the_holder_pays_alone():
    entry = HandEntry(winners=(Winner("Ben", 8, "seven_flowers_rob"),), by="self_draw", discarder="Dan")
    # Dan holds the eighth flower: 100 + 20 × 8 = 260
    assert taiwan(entry) == {"Amy": 0, "Ben": 260, "Cat": 0, "Dan": -260}


def test_seven_flowers_rob_from_the_dealer_adds_the_extra():
    entry = HandEntry(winners=(Winner("Ben", 8, "seven_flowers_rob"),), by="discard", discarder="Amy")
    # 100 + 20 × (8 + 1) = 280
    assert taiwan(entry) == {"Amy": -280, "Ben": 280, "Cat": 0, "Dan": 0}


def test_max_tai_caps_the_hand_before_the_dealer_extra():
    # 9 台 capped to 5; Amy (streak 1, extra 3): 100 + 20 × (5 + 3) = 260
    # Cat, Dan: 100 + 20 × 5 = 200; Ben: 260 + 400 = 660
    assert taiwan(won("Ben", 9, "self_draw"), streak=1, max_tai=5) == {
        "Amy": -260, "Ben": 660, "Cat": -200, "Dan": -200,
    }


def test_max_tai_leaves_a_smaller_hand_alone():
    # 4 台 under a cap of 5: Cat pays 100 + 20 × 4 = 180
    assert taiwan(won("Ben", 4, "discard", "Cat"), max_tai=5)["Cat"] == -180


def test_dealer_bonus_off_drops_the_extra():
    # Amy deals with streak 2 but no bonus: each pays 100 + 20 × 3 = 160; Amy 480
    assert taiwan(won("Amy", 3, "self_draw"), streak=2, dealer_bonus=False) == {
        "Amy": 480, "Ben": -160, "Cat": -160, "Dan": -160,
    }


def test_multiple_winners_each_paid_separately_by_the_discarder():
    entry = HandEntry(winners=(Winner("Amy", 2), Winner("Ben", 5)), by="discard", discarder="Cat")
    # to Amy (dealer, streak 0): 100 + 20 × (2 + 1) = 160; to Ben: 100 + 20 × 5 = 200
    assert taiwan(entry, multiple_winners=True) == {"Amy": 160, "Ben": 200, "Cat": -360, "Dan": 0}


def test_multiple_winners_from_the_dealer_each_get_the_extra():
    entry = HandEntry(winners=(Winner("Ben", 1), Winner("Dan", 0)), by="discard", discarder="Amy")
    # Amy streak 1 (extra 3): to Ben 100 + 20 × (1 + 3) = 180; to Dan 100 + 20 × (0 + 3) = 160
    assert taiwan(entry, streak=1, multiple_winners=True) == {"Amy": -340, "Ben": 180, "Cat": 0, "Dan": 160}


def test_second_winner_rejected_when_multiple_winners_is_off():
    table = Table.start("taiwan", SEATS, TAIWAN, {})
    entry = HandEntry(winners=(Winner("Amy", 2), Winner("Ben", 5)), by="discard", discarder="Cat")
    with pytest.raises(InvalidRequest) as caught:
        table.apply(entry)
    assert caught.value.field == "winners"
    assert "multiple_winners" in caught.value.message
    assert table.totals == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}


def test_zero_tai_win_pays_base():
    # 0 台 between non-dealers: Cat pays the base 100
    assert taiwan(won("Ben", 0, "discard", "Cat")) == {"Amy": 0, "Ben": 100, "Cat": -100, "Dan": 0}
    # 0 台 from the dealer (streak 0): 100 + 20 × (0 + 1) = 120
    assert taiwan(won("Ben", 0, "discard", "Amy"))["Amy"] == -120


# -- Shanghai -------------------------------------------------------------------


def test_plain_self_draw_each_other_pays_one_share():
    # share = 6 × 10 = 60; Ben gets 3 × 60 = 180
    assert shanghai(won("Ben", 6, "self_draw")) == {"Amy": -60, "Ben": 180, "Cat": -60, "Dan": -60}


def test_plain_discard_the_discarder_pays_one_share():
    assert shanghai(won("Ben", 6, "discard", "Cat")) == {"Amy": 0, "Ben": 60, "Cat": -60, "Dan": 0}


def test_three_mouth_self_draw_one_relation_pays_five_shares():
    entry = won("Ben", 6, "self_draw", three_mouth=(("Ben", "Cat"),))
    # Cat pays 5 × 60 = 300; Amy and Dan, unrelated, pay nothing
    assert shanghai(entry) == {"Amy": 0, "Ben": 300, "Cat": -300, "Dan": 0}


def test_three_mouth_self_draw_two_and_three_relations():
    two = won("Ben", 6, "self_draw", three_mouth=(("Ben", "Cat"), ("Dan", "Ben")))
    # the relation is mutual: Cat and Dan each pay 300, Ben gets 600 (10 shares)
    assert shanghai(two) == {"Amy": 0, "Ben": 600, "Cat": -300, "Dan": -300}
    three = won("Ben", 6, "self_draw", three_mouth=(("Ben", "Cat"), ("Dan", "Ben"), ("Amy", "Ben")))
    # 15 shares: 3 × 300 = 900
    assert shanghai(three) == {"Amy": -300, "Ben": 900, "Cat": -300, "Dan": -300}


def test_three_mouth_between_others_leaves_a_self_draw_plain():
    # Amy–Cat are related, but the winner Ben has no relation: one share each
    entry = won("Ben", 6, "self_draw", three_mouth=(("Amy", "Cat"),))
    assert shanghai(entry) == {"Amy": -60, "Ben": 180, "Cat": -60, "Dan": -60}


def test_three_mouth_discard_between_related_players_costs_two_shares():
    entry = won("Ben", 6, "discard", "Cat", three_mouth=(("Cat", "Ben"), ("Ben", "Dan")))
    # Cat pays 2 × 60 = 120 alone; Ben's other relation Dan pays nothing
    assert shanghai(entry) == {"Amy": 0, "Ben": 120, "Cat": -120, "Dan": 0}


def test_three_mouth_discard_between_related_players_ignores_ready():
    entry = won("Ben", 6, "discard", "Cat", three_mouth=(("Cat", "Ben"), ("Ben", "Dan")),
                discarder_ready=True)
    # the ready rule is only for an unrelated discarder: Cat still pays 2 × 60 = 120 alone
    assert shanghai(entry) == {"Amy": 0, "Ben": 120, "Cat": -120, "Dan": 0}


def test_three_mouth_unrelated_ready_discarder_and_the_related_pay_one_share():
    entry = won("Ben", 6, "discard", "Amy", three_mouth=(("Ben", "Cat"), ("Ben", "Dan")),
                discarder_ready=True)
    # Amy (ready), Cat and Dan (related to Ben) pay 60 each; Ben 180
    assert shanghai(entry) == {"Amy": -60, "Ben": 180, "Cat": -60, "Dan": -60}


def test_three_mouth_unrelated_discarder_not_ready_pays_two_shares_alone():
    entry = won("Ben", 6, "discard", "Amy", three_mouth=(("Ben", "Cat"), ("Ben", "Dan")))
    # Amy pays 2 × 60 = 120; Cat and Dan nothing
    assert shanghai(entry) == {"Amy": -120, "Ben": 120, "Cat": 0, "Dan": 0}


def test_robbed_kong_three_shares_relations_ignored():
    entry = won("Ben", 6, "robbing_kong", "Cat", three_mouth=(("Ben", "Dan"),))
    # Cat pays 3 × 60 = 180; Dan's relation to Ben does not count
    assert shanghai(entry) == {"Amy": 0, "Ben": 180, "Cat": -180, "Dan": 0}


def test_wasteland_hand_doubles_the_share_after_the_cap():
    # share = 10 × 10 × 2 = 200 (10 points is the 勒子 cap); Ben 600
    assert shanghai(won("Ben", 10, "self_draw"), wasteland_hand=True) == {
        "Amy": -200, "Ben": 600, "Cat": -200, "Dan": -200,
    }


def test_wasteland_doubles_three_mouth_shares_too():
    entry = won("Ben", 4, "discard", "Cat", three_mouth=(("Ben", "Cat"),))
    # share 4 × 10 × 2 = 80; two shares: 160
    assert shanghai(entry, wasteland_hand=True)["Cat"] == -160


def test_one_discard_pays_several_winners_separately():
    entry = HandEntry(winners=(Winner("Ben", 4), Winner("Dan", 10)), by="discard", discarder="Cat")
    # Cat pays Ben 4 × 10 = 40 and Dan 10 × 10 = 100
    assert shanghai(entry) == {"Amy": 0, "Ben": 40, "Cat": -140, "Dan": 100}


def test_several_winners_each_with_their_own_relations():
    entry = HandEntry(winners=(Winner("Ben", 4), Winner("Dan", 10)), by="discard", discarder="Cat",
                      three_mouth=(("Ben", "Cat"),))
    # Ben is related to Cat: 2 × 40 = 80; Dan is not: 1 × 100; Cat pays 180
    assert shanghai(entry) == {"Amy": 0, "Ben": 80, "Cat": -180, "Dan": 100}


def test_eight_flowers_paid_as_a_self_draw():
    entry = HandEntry(winners=(Winner("Ben", 40, "eight_flowers"),), by="discard", discarder="Cat")
    # 八花 4 勒 = 40 points; share 400, each other pays it: Ben 1200
    assert shanghai(entry) == {"Amy": -400, "Ben": 1200, "Cat": -400, "Dan": -400}


# -- the 荒番 dice ---------------------------------------------------------------

DOUBLE_ADD = {(1, 1), (4, 4)}
# written out from RULES.md §7: a 1 or a 4 with any other number, or 2-2, 3-3, 5-5, 6-6
SINGLE_ADD = {
    (1, 2), (1, 3), (1, 4), (1, 5), (1, 6),
    (4, 2), (4, 3), (4, 5), (4, 6),
    (2, 2), (3, 3), (5, 5), (6, 6),
}
NO_ADD = {(2, 3), (2, 5), (2, 6), (3, 5), (3, 6), (5, 6)}


def test_dice_rules_cover_every_throw_once():
    unordered = {tuple(sorted(pair)) for pair in itertools.product(range(1, 7), repeat=2)}
    named = {tuple(sorted(p)) for p in DOUBLE_ADD | SINGLE_ADD | NO_ADD}
    assert named == unordered and len(DOUBLE_ADD) + len(SINGLE_ADD) + len(NO_ADD) == 21


@pytest.mark.parametrize("dice", sorted(DOUBLE_ADD))
def test_dice_one_one_and_four_four_add_two(dice):
    assert dice_wasteland(dice) == 2


@pytest.mark.parametrize("dice", sorted(SINGLE_ADD))
def test_dice_with_a_one_or_four_or_a_double_add_one(dice):
    assert dice_wasteland(dice) == 1
    assert dice_wasteland(dice[::-1]) == 1


@pytest.mark.parametrize("dice", sorted(NO_ADD))
def test_other_dice_add_nothing(dice):
    assert dice_wasteland(dice) == 0
    assert dice_wasteland(dice[::-1]) == 0


def test_no_dice_add_nothing():
    assert dice_wasteland(None) == 0


# -- stakes -----------------------------------------------------------------------


def test_stakes_accept_positive_integers():
    assert stakes_from({"base": 100, "per_tai": 20}, "taiwan") == Stakes(100, 20)
    assert stakes_from(Stakes(10), "shanghai") == Stakes(10, 0)
    assert stakes_from({"base": 1_000_000, "per_tai": 1_000_000}, "taiwan") == Stakes(1_000_000, 1_000_000)


@pytest.mark.parametrize(
    "stakes, ruleset, field",
    [
        ({"base": 0, "per_tai": 20}, "taiwan", "stakes.base"),
        ({"base": -5, "per_tai": 20}, "taiwan_zz", "stakes.base"),
        ({"base": 100.0, "per_tai": 20}, "taiwan", "stakes.base"),
        ({"base": True, "per_tai": 20}, "taiwan", "stakes.base"),
        ({"base": "100", "per_tai": 20}, "taiwan", "stakes.base"),
        ({"base": 100}, "taiwan", "stakes.per_tai"),
        ({"base": 100, "per_tai": 0}, "taiwan", "stakes.per_tai"),
        ({"base": 100, "per_tai": 2.5}, "taiwan", "stakes.per_tai"),
        ({"base": 100, "per_tai": 1_000_001}, "taiwan", "stakes.per_tai"),
        ({"base": 10, "per_tai": 5}, "shanghai", "stakes.per_tai"),
        ({"base": 10, "ante": 5}, "shanghai", "stakes.ante"),
        ({}, "shanghai", "stakes.base"),
        ([100, 20], "taiwan", "stakes"),
    ],
)
def test_stakes_reject_what_is_not_a_positive_integer(stakes, ruleset, field):
    with pytest.raises(InvalidRequest) as caught:
        stakes_from(stakes, ruleset)
    assert caught.value.field == field
    assert "stakes" in caught.value.message
