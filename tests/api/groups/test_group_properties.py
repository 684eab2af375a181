"""Properties of balances over random evenings and payments (hypothesis), through the API.

Whatever is played and paid: the balances sum to zero; each member's
balance is the sum of their evening totals plus the payments they made minus
those they received (voided ones left out); a merge keeps every sum (the
survivor's balance and net money are the two members' added together, the
others' do not move), and two members who sat at one table are never merged.
"""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.groups.groups import Club
from tests.api.sessions.tables import discard
from tests.fuzzing import examples

NAMES = ["Amy", "Ben", "Cat", "Dan", "Eve"]

hands = st.lists(st.tuples(st.integers(0, 3), st.integers(1, 3), st.integers(1, 3)), min_size=1, max_size=4)
evenings = st.lists(st.tuples(st.permutations(NAMES), hands), min_size=1, max_size=2)
payments = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(1, 500), st.booleans()),
                    max_size=4)
merge = st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)).filter(lambda pair: pair[0] != pair[1])


def play(client, played, paid):
    """A club of five, the evenings (winner, discarder offset, 台 per hand) and the payments (some voided)."""
    club = Club(client)
    ids = {name: club.add(name) for name in NAMES}
    for order, evening_hands in played:
        evening = club.evening(list(order[:4]))
        for winner, offset, tai in evening_hands:
            evening.hand(discard(order[winner], order[(winner + offset) % 4], tai))
    for payer, payee, amount, void in paid:
        if payer != payee:
            payment = club.pay(payer, payee, amount).get_json()
            if void:
                club.client.delete(f"{club.path}/payments/{payment['id']}", headers=club.headers())
    return club, ids


def expected_balances(club, ids):
    """Σ evening totals + payments made − payments received, from what the group lists."""
    names = {member: name for name, member in ids.items()}
    balances = dict.fromkeys(NAMES, 0)
    for evening in club.get_ok()["evenings"]:
        for player, amount in evening["totals"].items():
            balances[names[evening["players"][player]]] += amount
    for payment in club.get_ok("/payments")["payments"]:
        if not payment["void"]:
            balances[payment["from"]] += payment["amount"]
            balances[payment["to"]] -= payment["amount"]
    return balances


@settings(max_examples=examples(bounded=3, deep=8), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(played=evenings, paid=payments, merged=merge)
def test_balances_sum_to_zero_rest_on_totals_and_payments_and_survive_a_merge(client, played, paid, merged):
    club, ids = play(client, played, paid)
    balances = club.balances()["balances"]
    assert sum(balances.values()) == 0
    assert balances == expected_balances(club, ids)
    nets = {row["name"]: row["net"] for row in club.standings()["standings"]}
    duplicate, into = merged
    if any({duplicate, into} <= set(order[:4]) for order, _ in played):
        # They sat at one table: two people, never merged; nothing moves.
        assert club.post(f"/members/{duplicate}/merge", {"into": into}, level="admin").status_code == 422
        assert club.balances()["balances"] == balances
        return
    club.post_ok(f"/members/{duplicate}/merge", {"into": into}, level="admin", status=200)
    after = club.balances()["balances"]
    assert after == {name: balances[name] + (balances[duplicate] if name == into else 0)
                     for name in NAMES if name != duplicate}
    expected_nets = {name: net for name, net in nets.items() if name != duplicate}
    if duplicate in nets:
        expected_nets[into] = expected_nets.get(into, 0) + nets[duplicate]
    assert {row["name"]: row["net"] for row in club.standings()["standings"]} == expected_nets
