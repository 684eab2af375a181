"""Settlement (結算): the fewest transfers (轉帳) that settle the evening's totals.

A set of transfers splits the people with non-zero totals into zero-sum groups (who paid whom), a group
of k needing at least k − 1; so the minimum is (non-zero totals) − (most disjoint zero-sum groups),
found exactly by a dynamic programme over subsets up to `MAX_EXACT_PARTICIPANTS` people. Past that (a
group's balances) the pairing below settles everyone in one group and `fewest` is false. Ties go by
name in code-point order, never by dict order. Within a group the largest debtor pays the largest
creditor. Rounding to `round_to` is the largest-remainder method: each total moves by less than
`round_to` and they still sum to zero.

A greedy largest-debtor-to-largest-creditor pairing needs four transfers in the second example (Cat
pays Amy 5 first, breaking the Amy/Dan/Eve group); three suffice.

>>> result = settle({"Amy": -20, "Ben": 320, "Cat": -320, "Dan": 20})
>>> [(t.frm, t.to, t.amount) for t in result.transfers]
[('Cat', 'Ben', 320), ('Amy', 'Dan', 20)]

>>> result = settle({"Amy": 6, "Ben": 5, "Cat": -5, "Dan": -3, "Eve": -3})
>>> [t.to_dict() for t in result.transfers]  # doctest: +NORMALIZE_WHITESPACE
[{'from': 'Cat', 'to': 'Ben', 'amount': 5},
 {'from': 'Dan', 'to': 'Amy', 'amount': 3},
 {'from': 'Eve', 'to': 'Amy', 'amount': 3}]

>>> result = settle({"Amy": -23, "Ben": 318, "Cat": -317, "Dan": 22}, round_to=10)
>>> result.totals
{'Amy': -20, 'Ben': 320, 'Cat': -320, 'Dan': 20}
>>> result.rounding.adjustments
{'Amy': 3, 'Ben': 2, 'Cat': -3, 'Dan': -2}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ledger.errors import InvalidRequest
from words import ENGLISH, word

MAX_EXACT_PARTICIPANTS = 16
"""Most participants with a non-zero total that `settle` searches exactly."""


@dataclass(frozen=True)
class Transfer:
    """One transfer (轉帳): `frm` pays `to` a positive integer `amount`."""

    frm: str
    to: str
    amount: int

    def to_dict(self) -> dict:
        """The API shape: {"from", "to", "amount"}."""
        return {"from": self.frm, "to": self.to, "amount": self.amount}


@dataclass(frozen=True)
class Rounding:
    """How the totals were rounded to `round_to` (找零): each one's adjustment, and where the remainder went."""

    round_to: int
    adjustments: dict[str, int]
    explanation: str

    def to_dict(self) -> dict:
        """The API shape: {"round_to", "adjustments", "explanation"}."""
        return {
            "round_to": self.round_to,
            "adjustments": dict(self.adjustments),
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class Settlement:
    """The evening's settlement (結算): the totals settled (rounded when asked), in name order, and transfers."""

    totals: dict[str, int]
    transfers: list[Transfer]
    rounding: Rounding | None = None
    fewest: bool = True  # False past MAX_EXACT_PARTICIPANTS non-zero totals: at most k - 1, not searched

    def to_dict(self) -> dict:
        """The API shape; "rounding" only appears when totals were rounded, "fewest" only when false."""
        shape = {
            "totals": dict(self.totals),
            "transfers": [transfer.to_dict() for transfer in self.transfers],
        }
        if self.rounding is not None:
            shape["rounding"] = self.rounding.to_dict()
        if not self.fewest:
            shape["fewest"] = False
        return shape


def settle(totals: Mapping[str, int], round_to: int | None = None) -> Settlement:
    """Settle `totals` (name -> integer, summing to zero) with the fewest transfers, rounded first to `round_to`.

    Bad totals or `round_to` raise `InvalidRequest` naming the problem.

    >>> settle({}).to_dict()
    {'totals': {}, 'transfers': []}
    >>> settle({"Ben": 50, "Amy": -50}).to_dict()
    {'totals': {'Amy': -50, 'Ben': 50}, 'transfers': [{'from': 'Amy', 'to': 'Ben', 'amount': 50}]}
    >>> settle({"Amy": 5, "Ben": -5}, round_to=10).rounding.explanation
    'Each total was rounded down to a multiple of 10, which left 10 over, so the total with the largest remainder (ties broken by name) was rounded up instead: Amy.'
    >>> settle({"Amy": 10, "Ben": -5})
    Traceback (most recent call last):
    ...
    ledger.errors.InvalidRequest: totals must sum to zero, but they sum to 5
    """
    settled = _checked_totals(totals)
    rounding = None
    if round_to is not None:
        rounding = _rounding(settled, _checked_round_to(round_to))
        settled = {name: settled[name] + rounding.adjustments[name] for name in settled}
    owing = [name for name in settled if settled[name] != 0]
    fewest = len(owing) <= MAX_EXACT_PARTICIPANTS
    transfers = [
        transfer
        for group in (_zero_sum_groups(settled) if fewest else [owing])
        for transfer in _settle_group(group, settled)
    ]
    transfers.sort(key=lambda t: (-t.amount, t.frm, t.to))
    return Settlement(settled, transfers, rounding, fewest)


def _checked_totals(totals: object) -> dict[str, int]:
    """The totals in name order, or InvalidRequest saying what is wrong."""
    if not isinstance(totals, Mapping):
        raise InvalidRequest(
            "totals must map player names to integer totals", field="totals"
        )
    for name, amount in totals.items():
        if not isinstance(name, str) or not name.strip():
            raise InvalidRequest(
                f"player names must be non-empty strings, got {name!r}", field="totals"
            )
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidRequest(
                f"total for {name} must be an integer, got {amount!r}", field="totals"
            )
    imbalance = sum(totals.values())
    if imbalance != 0:
        raise InvalidRequest(
            f"totals must sum to zero, but they sum to {imbalance}", field="totals"
        )
    return {name: totals[name] for name in sorted(totals)}


def _checked_round_to(round_to: object) -> int:
    """`round_to` itself when it is a positive integer, else InvalidRequest."""
    if isinstance(round_to, bool) or not isinstance(round_to, int) or round_to <= 0:
        raise InvalidRequest(
            f"round_to must be a positive integer, got {round_to!r}", field="round_to"
        )
    return round_to


def _rounding(totals: dict[str, int], round_to: int) -> Rounding:
    """Largest-remainder rounding of `totals` to multiples of `round_to`."""
    floors = {name: amount // round_to * round_to for name, amount in totals.items()}
    left_over = -sum(floors.values())
    by_remainder = sorted(totals, key=lambda name: (floors[name] - totals[name], name))
    raised = by_remainder[: left_over // round_to]
    adjustments = {
        name: floors[name] + (round_to if name in raised else 0) - totals[name]
        for name in totals
    }
    return Rounding(round_to, adjustments, rounding_sentence(round_to, raised))


def rounding_sentence(round_to: int, raised: Sequence[str], lang: str = ENGLISH) -> str:
    """How the rounding remainder was assigned, in `lang`; the API's `explanation` is the English one.

    >>> rounding_sentence(10, ["Ben"], "zh-Hant")
    '每人的總計先捨去到 10 的倍數，多出 10，所以餘數最大的 1 人（同數依名字）改為進位：Ben。'
    """
    if not raised:
        return word(lang, "rounding.none", round_to=round_to)
    return word(lang, "rounding.up_one" if len(raised) == 1 else "rounding.up", round_to=round_to,
                left=len(raised) * round_to, count=len(raised), names=word(lang, "rounding.separator").join(raised))


def _zero_sum_groups(totals: dict[str, int]) -> list[list[str]]:
    """Split the non-zero totals into the most zero-sum groups (tie-break above)."""
    names = [name for name in totals if totals[name] != 0]
    sums = _subset_sums([totals[name] for name in names])
    most = _most_groups(sums)
    groups = []
    remaining = len(sums) - 1
    while remaining:
        group = _first_group(remaining, sums, most)
        groups.append([names[i] for i in _members(group)])
        remaining ^= group
    return groups


def _subset_sums(amounts: list[int]) -> list[int]:
    """sums[mask] = the sum of the amounts whose bits are set in mask."""
    sums = [0] * (1 << len(amounts))
    for mask in range(1, len(sums)):
        lowest = mask & -mask
        sums[mask] = sums[mask ^ lowest] + amounts[lowest.bit_length() - 1]
    return sums


def _most_groups(sums: list[int]) -> list[int]:
    """most[mask] = the most disjoint zero-sum groups inside mask: a mask not summing to zero loses nothing by
    leaving out one member; a zero-sum mask is one group more than itself less any member."""
    most = [0] * len(sums)
    for mask in range(1, len(sums)):
        most[mask] = max(most[mask ^ bit] for bit in _bits(mask)) + (sums[mask] == 0)
    return most


def _first_group(remaining: int, sums: list[int], most: list[int]) -> int:
    """The group holding the first remaining name in a best split: of the candidates, first in name order."""
    lowest = remaining & -remaining
    others = remaining ^ lowest
    target = most[remaining] - 1
    best = None
    subset = others
    while True:
        group = subset | lowest
        if sums[group] == 0 and most[remaining ^ group] == target:
            if best is None or _members(group) < _members(best):
                best = group
        if subset == 0:
            return best
        subset = (subset - 1) & others


def _settle_group(names: list[str], totals: dict[str, int]) -> list[Transfer]:
    """Largest debtor pays largest creditor (ties by name) until all are square."""
    balances = {name: totals[name] for name in names}
    transfers = []
    while any(balances.values()):
        debtor = min(balances, key=lambda name: (balances[name], name))
        creditor = min(balances, key=lambda name: (-balances[name], name))
        amount = min(-balances[debtor], balances[creditor])
        transfers.append(Transfer(debtor, creditor, amount))
        balances[debtor] += amount
        balances[creditor] -= amount
    return transfers


def _bits(mask: int) -> list[int]:
    """The single-bit masks set in mask, lowest first."""
    return [1 << i for i in _members(mask)]


def _members(mask: int) -> list[int]:
    """The indices of the bits set in mask, in increasing order."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def running_totals(participants: Iterable[str], payments: Iterable[Mapping[str, int]]) -> dict[str, list[int]]:
    """Each participant's total before the first hand and after each hand whose `payments` are given, in order
    (the played ones: a voided hand has none to give). The evening's chart is drawn from it.

    >>> running_totals(["Amy", "Ben"], [{"Amy": 20, "Ben": -20}, {"Amy": -50, "Ben": 50}])
    {'Amy': [0, 20, -30], 'Ben': [0, -20, 30]}
    """
    running = {player: [0] for player in participants}
    for paid in payments:
        for player, series in running.items():
            series.append(series[-1] + paid.get(player, 0))
    return running
