"""The report's data for the hand-worked Friday evening (see `evenings.py`)."""
from reports.build import build_report
from tests.reports.evenings import FRIDAY_TOTALS, friday


def report():
    return build_report(*friday())


def test_totals_cover_everyone_who_sat_in_order_of_first_appearance():
    built = report()
    assert built.totals == FRIDAY_TOTALS
    assert built.participants == ("Amy", "Ben", "小明", "Dan", "Eve", "阿美")


def test_seat_history_says_who_sat_where_and_when():
    spells = [(s.seat, s.player, s.first_hand, s.last_hand) for s in report().seat_history]
    assert spells == [
        (0, "Amy", 1, 4), (0, "阿美", 5, 7),
        (1, "Ben", 1, 4), (1, "小明", 5, 7),
        (2, "小明", 1, 2), (2, "Eve", 4, 7),  # hand 3 was voided: it counts for nobody
        (3, "Dan", 1, 7),
    ]


def test_voided_hand_is_kept_without_payments_in_the_state_of_its_moment():
    hand = report().hands[2]
    assert (hand.number, hand.void, hand.payments) == (3, True, {})
    assert [(w.player, w.value) for w in hand.winners] == [("Dan", 5)]
    assert (hand.dealer, hand.streak, hand.seats) == ("Ben", 1, ("Amy", "Ben", "小明", "Dan"))


def test_hands_carry_dealer_streak_winds_and_patterns():
    hands = report().hands
    assert [(h.number, h.dealer, h.streak, h.hand_wind) for h in hands] == [
        (1, "Amy", 0, "E"), (2, "Ben", 0, "S"), (3, "Ben", 1, "S"), (4, "Ben", 1, "S"),
        (5, "Eve", 0, "W"), (6, "Eve", 1, "W"), (7, "Eve", 2, "W"),
    ]
    first, fifth = hands[0].winners[0], hands[4].winners[0]
    assert [(p.name, p.value) for p in first.patterns] == [("門清", 1), ("平胡", 2)]
    assert sorted((p.name, p.value) for p in fifth.patterns) == [("三元台", 1), ("混一色", 4)]
    assert hands[1].winners[0].patterns == ()  # quick entry: the declared 台 only
    assert hands[6].payments == {"阿美": -160, "小明": 580, "Eve": -260, "Dan": -160}


def test_statistics_per_player():
    stats = {s.player: (s.hands_played, s.wins, s.self_draws, s.deal_ins, s.biggest_win, s.biggest_hand)
             for s in report().stats()}
    assert stats == {
        "Amy": (3, 0, 0, 0, 0, None),  # the voided hand 3 (Amy's deal-in) does not count
        "Ben": (3, 2, 1, 0, 480, 2),
        "小明": (5, 1, 1, 1, 580, 7),
        "Dan": (6, 1, 0, 0, 120, 4),
        "Eve": (4, 1, 0, 1, 220, 5),
        "阿美": (3, 0, 0, 1, 0, None),
    }


def test_running_totals_start_at_zero_and_follow_every_played_hand():
    running = report().running_totals()
    assert running["Ben"] == [0, 160, 640, 640, 640, 640, 640]
    assert running["阿美"] == [0, 0, 0, 0, -220, -220, -380]
    assert {player: series[-1] for player, series in running.items()} == FRIDAY_TOTALS


def test_settlement_of_six_participants():
    # One zero-sum group only (no debtors' subset makes 260 or 640), so 6 - 1 = 5 transfers;
    # inside it the largest debtor pays the largest creditor, ties by name (Ben < 小明, Amy < Eve).
    transfers = [t.to_dict() for t in report().settlement.transfers]
    assert transfers == [
        {"from": "阿美", "to": "Ben", "amount": 380},
        {"from": "Dan", "to": "Ben", "amount": 200},
        {"from": "Amy", "to": "小明", "amount": 160},
        {"from": "Eve", "to": "小明", "amount": 100},
        {"from": "Eve", "to": "Ben", "amount": 60},
    ]
