"""A group's balances (結餘): what each member is owed or owes, from its evenings and its payments.

A balance is a sum, never a stored running figure that can drift: the member's evening totals (under
every name they played), plus payments made, minus payments received; voided ones count for nothing.
Each lists what it rests on (``because``), summing to the balance.

>>> evening = EveningTotals("s1", "Friday", {"Amy": 120, "Ben": -120}, {"Amy": "m1", "Ben": "m2"})
>>> paid = Payment(7, payer="m2", payee="m1", amount=100, void=False)
>>> found = balances({"m1": "Amy", "m2": "Ben"}, [evening], [paid])
>>> found.amounts, found.settlement.transfers
({'m1': 20, 'm2': -20}, [Transfer(frm='Ben', to='Amy', amount=20)])
>>> found.because["m2"]
[{'session': 's1', 'name': 'Friday', 'amount': -120}, {'payment': 7, 'amount': 100}]
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from ledger.payments import check_money
from ledger.settlement import Settlement, settle


class EveningTotals(NamedTuple):
    """One evening of the group: its id and name, its totals by player name, and each player's member id."""

    session: str
    name: str
    totals: Mapping[str, int]
    members: Mapping[str, str]


class Payment(NamedTuple):
    """Money that changed hands between two members (ids), voided or not."""

    id: int
    payer: str
    payee: str
    amount: int
    void: bool


class Balances(NamedTuple):
    """Each member's balance (by id), what it rests on, and the settlement of the balances (by name)."""

    amounts: dict[str, int]
    because: dict[str, list[dict]]
    settlement: Settlement


def balances(names: Mapping[str, str], evenings: Iterable[EveningTotals], payments: Iterable[Payment],
             round_to: int | None = None) -> Balances:
    """The balances of the members ``names`` (id -> current name) over ``evenings`` and ``payments``."""
    amounts = {member: 0 for member in names}
    because: dict[str, list[dict]] = {member: [] for member in names}
    for evening in evenings:
        for member, amount in by_member(evening).items():
            amounts[member] += amount
            because[member].append({"session": evening.session, "name": evening.name, "amount": amount})
    for payment in payments:
        if payment.void:
            continue
        for member, amount in ((payment.payer, payment.amount), (payment.payee, -payment.amount)):
            amounts[member] += amount
            because[member].append({"payment": payment.id, "amount": amount})
    settlement = settle({names[member]: amount for member, amount in amounts.items()}, round_to)
    return Balances(amounts, because, settlement)


def check_turnover(names: Mapping[str, str], evenings: Iterable[EveningTotals], payments: Iterable[Payment],
                   field: str) -> None:
    """Refuse (``InvalidRequest`` naming ``field``) a group in which a member's money turnover passes ``MONEY_MAX``.

    The turnover (evening totals and payments by size) bounds every figure shown of the member, so bounding
    it bounds them all.

    >>> evening = EveningTotals("s1", "Friday", {"Amy": 2**52, "Ben": -2**52}, {"Amy": "m1", "Ben": "m2"})
    >>> check_turnover({"m1": "Amy", "m2": "Ben"}, [evening], [Payment(1, "m2", "m1", 2**52 - 1, False)], "amount")
    >>> check_turnover({"m1": "Amy", "m2": "Ben"}, [evening], [Payment(1, "m2", "m1", 2**52, False)], "amount")
    Traceback (most recent call last):
    ...
    ledger.errors.InvalidRequest: Amy's money in this group (evening totals and payments, added up by size) would be 9007199254740992, past the 9007199254740991 (either sign) a phone shows exactly
    """
    paid = dict.fromkeys(names, 0)
    for payment in payments:
        if not payment.void:
            paid[payment.payer] += payment.amount
            paid[payment.payee] += payment.amount
    check_turnover_of(names, evenings, paid, field)


def check_turnover_of(names: Mapping[str, str], evenings: Iterable[EveningTotals], paid: Mapping[str, int],
                      field: str) -> None:
    """``check_turnover`` for the members ``names`` only, their payments summed by the database (``paid``).

    A change touches some members' money only, and every other's was checked when it last changed; reading
    every payment under SQLite's one write lock was a flood's lever (``benchmarks/abuse.py``).

    >>> evening = EveningTotals("s1", "Friday", {"Amy": 2**52, "Ben": -2**52}, {"Amy": "m1", "Ben": "m2"})
    >>> check_turnover_of({"m2": "Ben"}, [evening], {"m2": 2**52 - 1}, "amount")
    >>> check_turnover_of({"m2": "Ben"}, [evening], {"m2": 2**52}, "amount")
    Traceback (most recent call last):
    ...
    ledger.errors.InvalidRequest: Ben's money in this group (evening totals and payments, added up by size) would be 9007199254740992, past the 9007199254740991 (either sign) a phone shows exactly
    """
    turnover = {member: paid.get(member, 0) for member in names}
    for evening in evenings:
        for member, amount in by_member(evening).items():
            if member in turnover:
                turnover[member] += abs(amount)
    for member, amount in turnover.items():
        check_money(amount, f"{names[member]}'s money in this group (evening totals and payments, added up by size)",
                    field)


def by_member(evening: EveningTotals) -> dict[str, int]:
    """The evening's totals by member id (a member who played under two names gets both).

    >>> by_member(EveningTotals("s", "x", {"Amy": 50, "Amy2": 10, "Ben": -60}, {"Amy": "m1", "Amy2": "m1", "Ben": "m2"}))
    {'m1': 60, 'm2': -60}
    """
    found: dict[str, int] = {}
    for player, amount in evening.totals.items():
        member = evening.members[player]
        found[member] = found.get(member, 0) + amount
    return found
