"""A group's balances (``ledger.balances``): worked by hand, and their invariants over random groups.

Properties: the balances sum to zero; each is the member's evening totals plus
the payments they made minus those they received (voided payments count for
nothing); what a balance rests on (``because``) sums to it; two names of one
member add up; the transfers clear every balance.
"""
from hypothesis import given
from hypothesis import strategies as st

from ledger.balances import EveningTotals, Payment, balances, by_member

NAMES = {"m1": "Amy", "m2": "Ben", "m3": "Cat", "m4": "Dan", "m5": "Eve"}


def test_a_group_worked_by_hand():
    # Friday: Amy won 3 台 on Ben's discard: Amy +160, Ben −160 (100 + 20 × 3).
    # Saturday: Cat +300 as "Cathy" and −100 as "Cat" (one member, two names), Dan −200.
    friday = EveningTotals("s1", "Friday", {"Amy": 160, "Ben": -160, "Cat": 0, "Dan": 0},
                           {"Amy": "m1", "Ben": "m2", "Cat": "m3", "Dan": "m4"})
    saturday = EveningTotals("s2", "Saturday", {"Cathy": 300, "Cat": -100, "Dan": -200, "Amy": 0},
                             {"Cathy": "m3", "Cat": "m3", "Dan": "m4", "Amy": "m1"})
    payments = [Payment(1, payer="m2", payee="m1", amount=100, void=False),  # Ben pays Amy 100 of his 160
                Payment(2, payer="m4", payee="m3", amount=500, void=True)]  # voided: counts for nothing
    found = balances({key: NAMES[key] for key in ("m1", "m2", "m3", "m4")}, [friday, saturday], payments)
    # Amy 160 − 100 received = 60; Ben −160 + 100 paid = −60; Cat −100 + 300 = 200; Dan −200.
    assert found.amounts == {"m1": 60, "m2": -60, "m3": 200, "m4": -200}
    assert found.because["m3"] == [{"session": "s1", "name": "Friday", "amount": 0},
                                   {"session": "s2", "name": "Saturday", "amount": 200}]
    assert found.because["m2"] == [{"session": "s1", "name": "Friday", "amount": -160},
                                   {"payment": 1, "amount": 100}]
    # Ben pays Amy 60, Dan pays Cat 200: two transfers.
    assert sorted((t.frm, t.to, t.amount) for t in found.settlement.transfers) == [("Ben", "Amy", 60),
                                                                                  ("Dan", "Cat", 200)]


def test_rounding_is_the_settlement_s():
    evening = EveningTotals("s", "x", {"Amy": 149, "Ben": -149}, {"Amy": "m1", "Ben": "m2"})
    found = balances({"m1": "Amy", "m2": "Ben"}, [evening], [], round_to=100)
    assert found.amounts == {"m1": 149, "m2": -149}  # the balances as they are …
    assert found.settlement.totals == {"Amy": 100, "Ben": -100}  # … and settled to the nearest 100


@st.composite
def groups(draw):
    """Members, evenings whose totals sum to zero (players named as members or aliases), and payments."""
    # Tuples: strategies sampled from them are cached by hypothesis, not validated again on every draw.
    members = tuple(draw(st.lists(st.sampled_from(tuple(sorted(NAMES))), min_size=2, max_size=5, unique=True)))
    evenings = []
    for index in range(draw(st.integers(0, 6))):
        seated = draw(st.lists(st.sampled_from(members), min_size=2, max_size=4))  # a member may sit twice
        amounts = draw(st.lists(st.integers(-10_000, 10_000), min_size=len(seated) - 1, max_size=len(seated) - 1))
        amounts.append(-sum(amounts))
        players = {f"{member}-{position}": member for position, member in enumerate(seated)}
        evenings.append(EveningTotals(f"s{index}", f"evening {index}", dict(zip(players, amounts)), players))
    payments = [Payment(index, payer, payee, draw(st.integers(1, 10_000)), draw(st.booleans()))
                for index, (payer, payee) in enumerate(draw(st.lists(
                    st.tuples(st.sampled_from(members), st.sampled_from(members)).filter(lambda p: p[0] != p[1]),
                    max_size=8)))]
    return {member: NAMES[member] for member in members}, evenings, payments


@given(groups())
def test_balances_sum_to_zero_and_are_the_totals_plus_payments_made_minus_received(group):
    names, evenings, payments = group
    found = balances(names, evenings, payments)
    assert sum(found.amounts.values()) == 0
    for member in names:
        played = sum(amount for evening in evenings for player, amount in evening.totals.items()
                     if evening.members[player] == member)
        made = sum(p.amount for p in payments if p.payer == member and not p.void)
        received = sum(p.amount for p in payments if p.payee == member and not p.void)
        assert found.amounts[member] == played + made - received
        assert sum(item["amount"] for item in found.because[member]) == found.amounts[member]


@given(groups())
def test_voided_payments_change_nothing(group):
    names, evenings, payments = group
    assert balances(names, evenings, payments).amounts == balances(
        names, evenings, [p for p in payments if not p.void]).amounts


@given(groups())
def test_the_transfers_clear_every_balance(group):
    names, evenings, payments = group
    found = balances(names, evenings, payments)
    left = {names[member]: amount for member, amount in found.amounts.items()}
    for transfer in found.settlement.transfers:
        left[transfer.frm] += transfer.amount
        left[transfer.to] -= transfer.amount
    assert set(left.values()) <= {0}


@given(groups())
def test_an_evening_by_member_keeps_its_sum(group):
    _, evenings, _ = group
    for evening in evenings:
        assert sum(by_member(evening).values()) == sum(evening.totals.values())
