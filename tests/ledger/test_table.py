"""Table state through hands and seat changes, and every rejected entry.

Seats are Amy, Ben, Cat, Dan (seat 0–3, Amy deals first). Expected states
follow RULES.md R6, §6 and §7 and the rulings documented in ledger/table.py.
"""

import pytest

from ledger.entries import HandEntry, SeatChange, Winner
from ledger.errors import InvalidRequest
from ledger.table import Table, TableState

SEATS = ("Amy", "Ben", "Cat", "Dan")
DRAW = HandEntry(draw="exhausted")


def taiwan_table(ruleset="taiwan", **options):
    return Table.start(ruleset, list(SEATS), {"base": 100, "per_tai": 20}, options)


def shanghai_table():
    return Table.start("shanghai", list(SEATS), {"base": 10}, {})


def discard(winner, discarder, value=1, **extra):
    return HandEntry(winners=(Winner(winner, value),), by="discard", discarder=discarder, **extra)


def self_draw(winner, value=1, **extra):
    return HandEntry(winners=(Winner(winner, value),), by="self_draw", **extra)


def brief(table):
    state = table.state
    return state.dealer, state.streak, state.round_wind, state.hand_wind


# -- Taiwanese dealer, streak, winds ------------------------------------------


def test_a_new_table_starts_with_the_first_player_dealing_east():
    table = taiwan_table()
    assert table.state.to_dict() == {
        "dealer": "Amy", "streak": 0, "round_wind": "E", "hand_wind": "E",
        "hands_played": 0, "wasteland": 0, "seats": ["Amy", "Ben", "Cat", "Dan"], "jiang": 1,
    }


def test_taiwan_dealer_rotation_and_streak():
    table = taiwan_table()
    table.apply(discard("Ben", "Cat"))  # a non-dealer wins: the next seat deals
    assert brief(table) == ("Ben", 0, "E", "S")
    table.apply(self_draw("Ben"))  # the dealer wins: keeps the deal
    assert brief(table) == ("Ben", 1, "E", "S")
    table.apply(DRAW)  # a draw: the dealer keeps the deal
    assert brief(table) == ("Ben", 2, "E", "S")
    result = table.apply(discard("Amy", "Ben"))
    # Ben deals with streak 2: extra 1 + 2 × 2 = 5; he pays 100 + 20 × (1 + 5) = 220
    assert result.payments == {"Amy": 220, "Ben": -220, "Cat": 0, "Dan": 0}
    assert brief(table) == ("Cat", 0, "E", "W")
    assert table.state.hands_played == 4


@pytest.mark.parametrize("reason", ["exhausted", "four_winds", "four_kongs"])
def test_every_draw_keeps_the_deal_and_pays_nothing(reason):
    table = taiwan_table()
    result = table.apply(HandEntry(draw=reason))
    assert result.payments == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}
    assert brief(table) == ("Amy", 1, "E", "E")


def test_dealer_among_several_winners_keeps_the_deal():
    table = taiwan_table(multiple_winners=True)
    table.apply(HandEntry(winners=(Winner("Ben", 1), Winner("Amy", 1)), by="discard", discarder="Cat"))
    assert brief(table) == ("Amy", 1, "E", "E")


def pass_deal(table):
    """The player after the dealer self-draws, so the deal moves one seat on."""
    seats = table.state.seats
    return table.apply(self_draw(seats[(table.state.dealer_seat + 1) % 4]))


def test_round_wind_moves_on_when_the_deal_returns_to_seat_0():
    table = taiwan_table()
    hand_winds = []
    for _ in range(4):
        hand_winds.append(table.state.hand_wind)
        pass_deal(table)
    assert hand_winds == ["E", "S", "W", "N"]
    assert brief(table) == ("Amy", 0, "S", "E")
    for _ in range(8):
        pass_deal(table)
    assert (table.state.round_wind, table.state.jiang) == ("N", 1)


def test_a_new_jiang_after_the_north_round():
    table = taiwan_table()
    for _ in range(16):
        pass_deal(table)
    assert (table.state.round_wind, table.state.jiang, table.state.dealer) == ("E", 2, "Amy")
    assert table.state.hands_played == 16


def test_seat_winds_start_at_the_dealer_in_turn_order():
    state = TableState(seats=SEATS, dealer_seat=1)
    assert [state.seat_wind(p) for p in SEATS] == ["N", "E", "S", "W"]


def test_hand_result_reports_the_state_at_the_time_and_after():
    table = taiwan_table()
    table.apply(self_draw("Amy"))
    result = table.apply(discard("Cat", "Dan", 2))
    # Amy deals with streak 1; Cat and Dan are not the dealer: Dan pays 100 + 20 × 2 = 140
    assert result.to_dict() == {
        "number": 2, "dealer": "Amy", "streak": 1, "round_wind": "E", "hand_wind": "E",
        "wasteland": 0, "payments": {"Amy": 0, "Ben": 0, "Cat": 140, "Dan": -140},
        "state": {"dealer": "Ben", "streak": 0, "round_wind": "E", "hand_wind": "S",
                  "hands_played": 2, "wasteland": 0, "seats": list(SEATS), "jiang": 1},
    }


# -- Shanghai dealer, streak, winds, 荒番 --------------------------------------


def test_shanghai_the_winner_deals_next():
    table = shanghai_table()
    table.apply(discard("Ben", "Cat", 2))
    assert brief(table) == ("Ben", 0, "E", "S")
    table.apply(self_draw("Ben", 2))  # the dealer wins again
    assert brief(table) == ("Ben", 1, "E", "S")
    table.apply(DRAW)  # a draw keeps the deal
    assert brief(table) == ("Ben", 2, "E", "S")
    table.apply(discard("Dan", "Amy", 2))  # seat 1 -> seat 3: does not pass seat 0
    assert brief(table) == ("Dan", 0, "E", "N")
    table.apply(discard("Amy", "Cat", 2))  # seat 3 -> seat 0: passes seat 0, round S
    assert brief(table) == ("Amy", 0, "S", "E")
    table.apply(self_draw("Cat", 2))  # seat 0 -> seat 2
    assert brief(table) == ("Cat", 0, "S", "W")
    table.apply(self_draw("Ben", 2))  # seat 2 -> seat 1 goes round past seat 0: round W
    assert brief(table) == ("Ben", 0, "W", "S")


@pytest.mark.parametrize(
    "winners, discarder, dealer",
    [
        (("Amy", "Dan"), "Cat", "Dan"),  # after Cat in turn order: Dan, Amy, Ben
        (("Dan", "Amy"), "Cat", "Dan"),
        (("Amy", "Dan"), "Ben", "Dan"),  # after Ben: Cat, Dan, Amy
        (("Ben", "Amy"), "Dan", "Amy"),  # after Dan: Amy, Ben, Cat
        (("Cat", "Ben", "Amy"), "Dan", "Amy"),
    ],
)
def test_shanghai_several_winners_first_in_turn_after_the_discarder_deals(winners, discarder, dealer):
    table = shanghai_table()
    entry = HandEntry(winners=tuple(Winner(p, 2) for p in winners), by="discard", discarder=discarder)
    table.apply(entry)
    assert table.state.dealer == dealer


def test_shanghai_wasteland_counter_with_dice_wins_and_draws():
    table = shanghai_table()
    first = table.apply(self_draw("Ben", 5, dice=(1, 1)))
    # H = 0 + 2 = 2 during the hand: a 荒番 hand, share 5 × 10 × 2 = 100, Ben + 300
    assert (first.wasteland, first.wasteland_hand) == (2, True)
    assert first.payments == {"Amy": -100, "Ben": 300, "Cat": -100, "Dan": -100}
    assert table.state.wasteland == 1  # a win: 2 - 1
    second = table.apply(DRAW)
    assert (second.wasteland, table.state.wasteland) == (1, 2)  # a draw: 1 + 1
    third = table.apply(discard("Cat", "Ben", 2, dice=(2, 3)))
    assert (third.wasteland, table.state.wasteland) == (2, 1)  # (2,3) adds nothing
    fourth = table.apply(discard("Cat", "Ben", 2, dice=(6, 6)))
    assert (fourth.wasteland, table.state.wasteland) == (2, 1)  # 6-6 adds 1, the win takes 1
    fifth = table.apply(discard("Cat", "Ben", 2))
    assert (fifth.wasteland, table.state.wasteland) == (1, 0)
    sixth = table.apply(discard("Cat", "Ben", 2))
    # H = 0: no 荒番; share 2 × 10 = 20; a win leaves H at 0, never below
    assert (sixth.wasteland, sixth.wasteland_hand, table.state.wasteland) == (0, False, 0)
    assert sixth.payments["Ben"] == -20


def test_taiwan_tables_keep_wasteland_at_zero():
    table = taiwan_table()
    table.apply(DRAW)
    assert table.state.wasteland == 0


# -- seat changes ---------------------------------------------------------------


def test_substitute_in_the_dealer_seat_continues_the_deal_and_streak():
    table = taiwan_table()
    table.apply(self_draw("Amy"))  # each pays 100 + 20 × (1 + 1) = 140; Amy + 420
    assert table.apply(SeatChange(0, "Eve")) is None
    assert brief(table) == ("Eve", 1, "E", "E")
    result = table.apply(self_draw("Eve", 2))
    # Eve deals with Amy's streak 1: extra 3; each pays 100 + 20 × (2 + 3) = 200
    assert result.payments == {"Eve": 600, "Ben": -200, "Cat": -200, "Dan": -200}
    assert table.totals == {"Amy": 420, "Ben": -340, "Cat": -340, "Dan": -340, "Eve": 600}
    assert list(table.totals) == ["Amy", "Ben", "Cat", "Dan", "Eve"]


def test_substitute_takes_the_seat_wind_and_place_in_the_rotation():
    table = taiwan_table()
    table.apply(SeatChange(1, "Fay"))
    assert table.state.seat_wind("Fay") == "S"
    assert brief(table) == ("Amy", 0, "E", "E")
    table.apply(self_draw("Fay"))  # seat 1 wins: seat 1 deals next
    assert brief(table) == ("Fay", 0, "E", "S")


def test_player_who_left_is_rejected_then_may_come_back_in_any_seat():
    table = taiwan_table()
    table.apply(discard("Amy", "Ben", 1))  # Amy dealer: Ben pays 100 + 20 × (1 + 1) = 140
    table.apply(SeatChange(0, "Eve"))
    with pytest.raises(InvalidRequest) as caught:
        table.apply(discard("Amy", "Ben"))
    assert caught.value.field == "winners[0].player"
    assert "'Amy' is not seated" in caught.value.message
    assert "Eve, Ben, Cat, Dan" in caught.value.message
    table.apply(SeatChange(2, "Amy"))  # Amy returns in Cat's seat
    assert table.state.seats == ("Eve", "Ben", "Amy", "Dan")
    table.apply(discard("Amy", "Dan", 3))
    # the dealer is Eve (seat 0, streak 1), not involved: Dan pays 100 + 20 × 3 = 160
    assert table.totals == {"Amy": 300, "Ben": -140, "Cat": 0, "Dan": -160, "Eve": 0}


def test_substitute_in_a_non_dealer_seat_leaves_dealer_and_streak():
    table = taiwan_table()
    table.apply(DRAW)
    table.apply(SeatChange(3, "Gus"))
    assert brief(table) == ("Amy", 1, "E", "E")
    assert table.state.hands_played == 1


@pytest.mark.parametrize(
    "change, field, words",
    [
        (SeatChange(4, "Eve"), "seat", "0, 1, 2 or 3"),
        (SeatChange(-1, "Eve"), "seat", "0, 1, 2 or 3"),
        (SeatChange(2, "Ben"), "player", "Ben already sits in seat 1"),
        (SeatChange(1, "Ben"), "player", "Ben already sits in seat 1"),
    ],
)
def test_rejected_seat_changes(change, field, words):
    table = taiwan_table()
    with pytest.raises(InvalidRequest) as caught:
        table.apply(change)
    assert caught.value.field == field
    assert words in caught.value.message
    assert table.state.seats == SEATS and list(table.totals) == list(SEATS)


# -- starting a table -----------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, players, stakes, options, field, words",
    [
        ("mahjong", SEATS, {"base": 1, "per_tai": 1}, {}, "ruleset", "unknown ruleset"),
        ("taiwan", SEATS[:3], {"base": 1, "per_tai": 1}, {}, "players", "exactly four"),
        ("taiwan", "AmyBenCatDan", {"base": 1, "per_tai": 1}, {}, "players", "exactly four"),
        ("taiwan", ["Amy", "Ben", "Amy", "Dan"], {"base": 1, "per_tai": 1}, {}, "players[2]", "Amy is listed twice"),
        ("taiwan", ["Amy", "", "Cat", "Dan"], {"base": 1, "per_tai": 1}, {}, "players[1]", "non-empty"),
        ("taiwan", ["Amy", 7, "Cat", "Dan"], {"base": 1, "per_tai": 1}, {}, "players[1]", "non-empty"),
        ("taiwan", SEATS, {"base": 0, "per_tai": 1}, {}, "stakes.base", "whole number from 1 to 1000000"),
        ("taiwan", SEATS, {"base": 1, "per_tai": 1}, {"bonus": True}, "options.bonus", "unknown option"),
        ("taiwan", SEATS, {"base": 1, "per_tai": 1}, {"dealer_bonus": 1}, "options.dealer_bonus", "true or false"),
        ("taiwan", SEATS, {"base": 1, "per_tai": 1}, {"max_tai": 0}, "options.max_tai", "positive"),
        ("taiwan", SEATS, {"base": 1, "per_tai": 1}, {"max_tai": 5.0}, "options.max_tai", "positive"),
        ("taiwan", SEATS, {"base": 1, "per_tai": 1}, {"see_flower_see_word": True}, "options.see_flower_see_word",
         "unknown option"),
        ("shanghai", SEATS, {"base": 10}, {"multiple_winners": True}, "options.multiple_winners", "unknown option"),
        ("shanghai", SEATS, {"base": 10}, ["dealer_bonus"], "options", "options must be an object"),
    ],
)
def test_start_rejects(ruleset, players, stakes, options, field, words):
    with pytest.raises(InvalidRequest) as caught:
        Table.start(ruleset, players, stakes, options)
    assert caught.value.field == field
    assert words in caught.value.message


def test_start_fills_option_defaults():
    table = Table.start("taiwan_zz", SEATS, {"base": 1, "per_tai": 1}, {"max_tai": 8})
    assert table.options == {
        "dealer_bonus": True, "multiple_winners": False, "max_tai": 8, "see_flower_see_word": False,
    }
    assert Table.start("shanghai", SEATS, {"base": 10}, None).options == {}


# -- rejected hands -------------------------------------------------------------

TAIWAN_REJECTS = [
    (discard("Zed", "Cat"), "winners[0].player", "'Zed' is not seated at this table now; seated: Amy, Ben, Cat, Dan"),
    (discard("Ben", "Zed"), "discarder", "'Zed' is not seated"),
    (discard("Ben", "Ben"), "discarder", "Ben cannot both win and be the discarder"),
    (HandEntry(winners=(Winner("Ben", 1),), by="discard"), "discarder", "needs the discarder"),
    (HandEntry(winners=(Winner("Ben", 1),), by="robbing_kong"), "discarder", "robbed player"),
    (HandEntry(winners=(Winner("Ben", 1),), by="self_draw", discarder="Cat"),
     "discarder", "self-draw (自摸) has no discarder"),
    (discard("Ben", "Cat", -1), "winners[0].tai", "cannot be negative"),
    (discard("Ben", "Cat", 1001), "winners[0].tai", "at most 1000"),
    (HandEntry(winners=(Winner("Ben", 1), Winner("Ben", 2)), by="discard", discarder="Cat"),
     "winners[1].player", "Ben is listed twice"),
    (HandEntry(winners=(Winner("Ben", 1), Winner("Dan", 2)), by="discard", discarder="Cat"),
     "winners", "multiple_winners"),
    (discard("Ben", "Cat", dice=(1, 4)), "dice", "shanghai tables only"),
    (discard("Ben", "Cat", three_mouth=(("Ben", "Cat"),)), "three_mouth", "shanghai tables only"),
    (discard("Ben", "Cat", discarder_ready=True), "discarder_ready", "shanghai tables only"),
    (HandEntry(winners=(Winner("Ben", 1),), draw="exhausted"), "winners", "draw (流局) has no winners"),
    (HandEntry(by="discard", draw="exhausted"), "by", "draw (流局) has no by"),
    (HandEntry(discarder="Cat", draw="exhausted"), "discarder", "no discarder"),
    (HandEntry(draw="abandoned"), "reason", "unknown draw reason 'abandoned'"),
    (HandEntry(winners=(Winner("Ben", 1),), by="stolen", discarder="Cat"), "by", "by must be one of"),
    (HandEntry(winners=(Winner("Ben", 1),)), "by", "by must be one of"),
    (HandEntry(), "winners", "needs winners, or draw"),
    (HandEntry(winners=(Winner("Ben", 8, "eight_flowers"),), by="self_draw"), "winners[0].event", "unknown event"),
]


@pytest.mark.parametrize("entry, field, words", TAIWAN_REJECTS)
def test_taiwan_rejects(entry, field, words):
    assert_rejected(taiwan_table(), entry, field, words)


ZZ_REJECTS = [
    (HandEntry(winners=(Winner("Ben", 8, "seven_flowers_rob"),), by="self_draw"),
     "discarder", "holder of the eighth flower"),
    (HandEntry(winners=(Winner("Ben", 8, "seven_flowers_rob"),), by="discard", discarder="Ben"),
     "discarder", "cannot both win"),
    (HandEntry(winners=(Winner("Ben", 8, "eight_flowers"), Winner("Dan", 1)), by="discard", discarder="Cat"),
     "winners", "single winner"),
    (HandEntry(winners=(Winner("Ben", 8, "nine_flowers"),), by="self_draw"), "winners[0].event", "unknown event"),
    (HandEntry(winners=(Winner("Ben", 1), Winner("Dan", 2)), by="self_draw"), "winners", "self-draw has one winner"),
]


@pytest.mark.parametrize("entry, field, words", ZZ_REJECTS)
def test_taiwan_zz_rejects(entry, field, words):
    assert_rejected(taiwan_table("taiwan_zz", multiple_winners=True), entry, field, words)


SHANGHAI_REJECTS = [
    (discard("Ben", "Cat", 0), "winners[0].points", "at least 1 point"),
    (discard("Ben", "Cat", -3), "winners[0].points", "cannot be negative"),
    (discard("Ben", "Cat", 1001), "winners[0].points", "at most 1000"),
    (discard("Ben", "Cat", 2, dice=(0, 3)), "dice", "1 to 6, not 0"),
    (discard("Ben", "Cat", 2, dice=(1, 7)), "dice", "1 to 6, not 7"),
    (discard("Ben", "Cat", 2, three_mouth=(("Ben", "Zed"),)), "three_mouth[0]", "'Zed' is not seated"),
    (discard("Ben", "Cat", 2, three_mouth=(("Ben", "Cat"), ("Ben", "Ben"))), "three_mouth[1]",
     "needs two players, not Ben twice"),
    (discard("Ben", "Cat", 2, three_mouth=(("Ben", "Cat"), ("Cat", "Ben"))), "three_mouth[1]", "listed twice"),
    (self_draw("Ben", 2, discarder_ready=True), "discarder_ready", "only applies to a discard"),
    (HandEntry(draw="exhausted", three_mouth=(("Ben", "Cat"),)), "three_mouth", "no three_mouth"),
    (HandEntry(winners=(Winner("Ben", 1), Winner("Dan", 2)), by="self_draw"), "winners", "self-draw has one winner"),
    (HandEntry(winners=(Winner("Ben", 8, "seven_flowers_rob"),), by="discard", discarder="Cat"),
     "winners[0].event", "unknown event 'seven_flowers_rob' in shanghai"),
]


@pytest.mark.parametrize("entry, field, words", SHANGHAI_REJECTS)
def test_shanghai_rejects(entry, field, words):
    assert_rejected(shanghai_table(), entry, field, words)


def assert_rejected(table, entry, field, words):
    table.apply(DRAW)
    before = (table.state, dict(table.totals), list(table.results))
    with pytest.raises(InvalidRequest) as caught:
        table.apply(entry)
    assert caught.value.field == field
    assert words in caught.value.message
    assert (table.state, table.totals, table.results) == before


def test_largest_values_are_accepted():
    table = taiwan_table()
    # 1000 台 between non-dealers: Cat pays 100 + 20 × 1000 = 20100
    assert table.apply(discard("Ben", "Cat", 1000)).payments["Cat"] == -20100


def test_shanghai_draw_may_carry_dice():
    table = shanghai_table()
    result = table.apply(HandEntry(draw="exhausted", dice=(4, 4)))
    assert (result.wasteland, table.state.wasteland) == (2, 3)
