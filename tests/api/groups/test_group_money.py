"""Money past 2**31 is kept exactly, and a change that would take a member's money past ±(2**53 − 1) is refused
(issue 27, item 5: a payment of 2,147,483,648 was a 500 on PostgreSQL, "integer out of range").

A member's money in the group, counted by size, is what every figure of
theirs is bounded by (``ledger.balances.check_turnover``).
"""
import pytest

from tests.api.groups.groups import Club
from tests.api.sessions.tables import discard

MAX = 2**53 - 1  # 9,007,199,254,740,991
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]


@pytest.fixture
def club(client):
    return Club.with_members(client, PLAYERS)


def test_a_payment_past_32_bits_is_kept_exactly(club):
    response = club.pay("Amy", "Ben", 2_147_483_648)
    assert response.status_code == 201, response.get_json()
    assert [payment["amount"] for payment in club.get_ok("/payments")["payments"]] == [2_147_483_648]
    assert club.balances()["balances"] == {"Amy": 2_147_483_648, "Ben": -2_147_483_648, "Cat": 0, "Dan": 0}


def test_a_payment_up_to_the_bound_is_kept_and_one_past_it_is_refused_naming_amount(club):
    assert club.pay("Amy", "Ben", MAX).status_code == 201
    past = club.pay("Cat", "Dan", MAX + 1)
    assert past.status_code == 422
    assert past.get_json()["field"] == "amount"
    assert club.balances()["balances"] == {"Amy": MAX, "Ben": -MAX, "Cat": 0, "Dan": 0}


def test_a_payment_that_takes_a_members_money_past_the_bound_is_refused(club):
    assert club.pay("Amy", "Ben", MAX - 10).status_code == 201
    assert club.pay("Cat", "Ben", 10).status_code == 201  # Ben: MAX − 10 + 10 = MAX, the bound itself
    refused = club.pay("Ben", "Dan", 1)
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "amount"
    assert refused.get_json()["message"].startswith("Ben's money in this group")
    batch = club.post("/payments", {"payments": [{"from": "Dan", "to": "Cat", "amount": 5},
                                                 {"from": "Amy", "to": "Dan", "amount": 11}]})
    assert batch.status_code == 422  # Amy: MAX − 10 + 11; the first payment is not kept either
    assert batch.get_json()["field"] == "payments"
    assert len(club.get_ok("/payments")["payments"]) == 2


def test_a_hand_of_a_group_evening_that_takes_a_members_money_past_the_bound_is_refused(client, club):
    evening = club.evening(PLAYERS)
    assert club.pay("Dan", "Cat", MAX - 100).status_code == 201
    before = client.get(evening.path, headers=club.headers("read")).get_json()
    # Ben wins 1 台 on Cat's discard: Cat pays 100 + 20 = 120; Cat's money would be MAX − 100 + 120
    refused = evening.hand(discard("Ben", "Cat", 1))
    assert refused.status_code == 422
    assert refused.get_json()["message"].startswith("Cat's money in this group")
    after = client.get(evening.path, headers=club.headers("read")).get_json()
    assert (after["revision"], after["totals"]) == (before["revision"], before["totals"])
    assert evening.hand(discard("Amy", "Ben", 1)).status_code == 201  # Amy (the dealer) and Ben are far inside


def test_a_merge_that_adds_two_members_money_past_the_bound_is_refused(club):
    assert club.pay("Amy", "Ben", 2**52).status_code == 201
    assert club.pay("Cat", "Dan", 2**52).status_code == 201
    refused = club.post("/members/Cat/merge", {"into": "Amy"}, level="admin")
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "into"
    assert sorted(member["name"] for member in club.get_ok()["members"]) == PLAYERS
