"""Money stays within ±(2**53 − 1), what a phone's JavaScript shows exactly (issue 27, item 5).

No evening at legal stakes comes near it (one maximal hand moves about
3.9 × 10**9, an evening holds at most 5,000 hands), so an evening resumed
from totals near the bound stands for one that has gone far.
"""
import pytest

from ledger.balances import EveningTotals, Payment, check_turnover
from ledger.errors import InvalidRequest
from ledger.payments import MONEY_MAX
from ledger.recorder import Recorder

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
STAKES = {"base": 100, "per_tai": 20}
STATE = {"seats": PLAYERS, "dealer": "Amy", "streak": 0, "round_wind": "E", "hand_wind": "E", "jiang": 0,
         "hands_played": 0, "wasteland": 0, "dealer_index": 0}


def recorder_at(totals):
    fresh = Recorder.start("taiwan", PLAYERS, STAKES, {})
    return Recorder.resume("taiwan", PLAYERS, STAKES, {}, fresh.state.to_dict(), totals)


def ben_wins_from_cat():
    """Ben (not the dealer) wins 1 台 on Cat's discard: Cat pays 100 + 20 = 120 (dealer not involved)."""
    return {"winners": [{"player": "Ben", "tai": 1}], "by": "discard", "discarder": "Cat"}


def test_a_hand_that_takes_a_total_just_to_the_bound_is_recorded():
    recorder = recorder_at({"Amy": 0, "Ben": MONEY_MAX - 120, "Cat": -(MONEY_MAX - 120), "Dan": 0})
    recorder.record("hand", ben_wins_from_cat())
    assert recorder.totals == {"Amy": 0, "Ben": MONEY_MAX, "Cat": -MONEY_MAX, "Dan": 0}


def test_a_hand_that_takes_a_total_past_the_bound_is_refused_and_changes_nothing():
    before = {"Amy": 0, "Ben": MONEY_MAX - 119, "Cat": -(MONEY_MAX - 119), "Dan": 0}
    recorder = recorder_at(before)
    with pytest.raises(InvalidRequest) as refused:
        recorder.record("hand", ben_wins_from_cat())
    assert refused.value.field == "hand"
    assert refused.value.message == ("Ben's total after this hand would be 9007199254740992, past the "
                                     "9007199254740991 (either sign) a phone shows exactly")
    assert recorder.totals == before
    assert recorder.state.to_dict()["hands_played"] == 0


def test_a_members_turnover_counts_every_evening_and_payment_by_size():
    names = {"m1": "Amy", "m2": "Ben"}
    # Amy: |+2**52| in one evening, |−2**51| in another, 2**51 − 1 received: 2**53 − 1 in all, the bound itself.
    evenings = [EveningTotals("s1", "Mon", {"Amy": 2**52, "Ben": -2**52}, {"Amy": "m1", "Ben": "m2"}),
                EveningTotals("s2", "Tue", {"Amy": -2**51, "Ben": 2**51}, {"Amy": "m1", "Ben": "m2"})]
    payments = [Payment(1, "m2", "m1", 2**51 - 1, False), Payment(2, "m2", "m1", 5, True)]  # the void one counts 0
    check_turnover(names, evenings, payments, "amount")
    with pytest.raises(InvalidRequest) as refused:
        check_turnover(names, evenings, [*payments, Payment(3, "m1", "m2", 1, False)], "amount")
    assert refused.value.field == "amount"
    assert refused.value.message.startswith("Amy's money in this group (evening totals and payments, added up by "
                                            "size) would be 9007199254740992")
