"""Payments (付錢): one finished hand -> how much each seated player wins or pays.

Every function returns `{player: amount}` for the four seated players, integers summing to zero.
Taiwanese (RULES.md §6): a payer pays ``base + per_tai × (min(台, max_tai) + dealer extra)``, the
dealer extra `1 + 2n` on a payment to or from the dealer on streak n. Shanghai (RULES.md §7): one
share is `points × base`, doubled in a 荒番 hand; 三口 relations change who pays (`shanghai_payers`).
`dice_wasteland` says how much a throw adds to the 荒番 counter.

(First example: each pays 100 + 20 × (3 + 1): Amy deals, streak 0 adds 1 台. Second: a share is
6 × 10 × 2 = 120 in a 荒番 hand; the robbed Dan pays three.)

>>> stakes = Stakes(base=100, per_tai=20)
>>> seats = ("Amy", "Ben", "Cat", "Dan")
>>> self_draw = HandEntry(winners=(Winner("Amy", 3),), by="self_draw")
>>> taiwan_payments(self_draw, seats, dealer="Amy", streak=0, stakes=stakes, options={})
{'Amy': 540, 'Ben': -180, 'Cat': -180, 'Dan': -180}

>>> rob = HandEntry(winners=(Winner("Ben", 6),), by="robbing_kong", discarder="Dan")
>>> shanghai_payments(rob, seats, Stakes(base=10), wasteland_hand=True)
{'Amy': 0, 'Ben': 360, 'Cat': 0, 'Dan': -360}

>>> [dice_wasteland(d) for d in [(1, 1), (4, 4), (1, 5), (6, 4), (3, 3), (3, 5), None]]
[2, 2, 1, 1, 1, 0, 0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledger.entries import HandEntry, Winner, is_int
from ledger.errors import InvalidRequest

SELF_DRAW_SHARES = 5  # 三口包: each related player pays five shares on a self-draw
ROBBED_KONG_SHARES = 3  # 搶槓: the robbed player pays for all three
MAX_STAKE = 1_000_000  # with MAX_VALUE 台 this keeps every total inside a 64-bit column
#: The largest amount of money (either sign) any figure may reach: a payment, a total, a balance, a net. A phone's
#: JavaScript holds integers exactly up to 2**53 - 1 (Number.MAX_SAFE_INTEGER), so a larger figure would show
#: wrong. One maximal hand at legal stakes moves ≈ 3.9 × 10**9, so an evening of 5,000 of them stays far inside;
#: the change that would go past is refused (tests/ledger/test_money_bounds.py).
MONEY_MAX = 2**53 - 1
DEALER_EXTRAS = ("1+2n", "1+n", "none")  # 莊家台 formulas a table may choose (house rules)
#: The 詐胡 penalty (as a self-drawn hand of N 台 / points) when neither house rules nor ``max_tai`` set one.
DEFAULT_FALSE_WIN = {"taiwan": 8, "taiwan_zz": 8, "shanghai": 10}
_NONE: Mapping = {}  # no house rules


@dataclass(frozen=True)
class Stakes:
    """The table's stakes: `base` (底, or 底分 in shanghai) and `per_tai` (台)."""

    base: int
    per_tai: int = 0


def check_money(amount: int, what: str, field: str) -> None:
    """Refuse (``InvalidRequest`` naming ``field``) an ``amount`` beyond ±``MONEY_MAX``; ``what`` says whose.

    >>> check_money(-MONEY_MAX, "Amy's total", "hand")
    >>> check_money(MONEY_MAX + 1, "Amy's total", "hand")
    Traceback (most recent call last):
    ...
    ledger.errors.InvalidRequest: Amy's total would be 9007199254740992, past the 9007199254740991 (either sign) a phone shows exactly
    """
    if abs(amount) > MONEY_MAX:
        raise InvalidRequest(f"{what} would be {amount}, past the {MONEY_MAX} (either sign) a phone shows exactly",
                             field)


def stakes_from(value: object, ruleset: str) -> Stakes:
    """Check stakes for `ruleset`: positive `base` and `per_tai` (shanghai: no `per_tai`), none above `MAX_STAKE`.

    >>> stakes_from({"base": 10}, "shanghai")
    Stakes(base=10, per_tai=0)
    """
    if isinstance(value, Stakes):
        value = {"base": value.base, "per_tai": value.per_tai}
    if not isinstance(value, Mapping):
        raise InvalidRequest("stakes must be an object like {\"base\": 100, \"per_tai\": 20}", "stakes")
    needed = ("base",) if ruleset == "shanghai" else ("base", "per_tai")
    for key in value:
        if key not in needed and not (key == "per_tai" and value[key] == 0):
            raise InvalidRequest(f"{ruleset} stakes take only {' and '.join(needed)}", f"stakes.{key}")
    for key in needed:
        amount = value.get(key)
        if not is_int(amount) or not 0 < amount <= MAX_STAKE:
            raise InvalidRequest(
                f"stakes {key} must be a whole number from 1 to {MAX_STAKE}, not {amount!r}", f"stakes.{key}"
            )
    return Stakes(base=value["base"], per_tai=value.get("per_tai", 0))


def dice_wasteland(dice: tuple[int, int] | None) -> int:
    """荒番 added by the dice: (1,1)/(4,4) +2; another 1 or 4, or 2-2/3-3/5-5/6-6 +1."""
    if dice is None:
        return 0
    low, high = sorted(dice)
    if low == high and low in (1, 4):
        return 2
    if low in (1, 4) or high in (1, 4) or low == high:
        return 1
    return 0


def dealer_extra(streak: int, options: Mapping, house_rules: Mapping = _NONE) -> int:
    """莊家台 in 台 for the dealer's ``streak`` n: ``1 + 2n``, or the house rules' ``1 + n`` or ``none``,
    capped at their ``max_dealer_extra``.

    >>> [dealer_extra(2, {}), dealer_extra(2, {}, {"dealer_extra": "1+n"}),
    ...  dealer_extra(4, {}, {"max_dealer_extra": 5}), dealer_extra(2, {"dealer_bonus": False})]
    [5, 3, 5, 0]
    """
    formula = house_rules.get("dealer_extra", "1+2n") if options.get("dealer_bonus", True) else "none"
    extra = 0 if formula == "none" else 1 + (2 if formula == "1+2n" else 1) * streak
    cap = house_rules.get("max_dealer_extra")
    return extra if cap is None else min(extra, cap)


def taiwan_payments(
    entry: HandEntry, seats: Sequence[str], dealer: str, streak: int, stakes: Stakes, options: Mapping,
    house_rules: Mapping = _NONE,
) -> dict[str, int]:
    """Who pays whom in a Taiwanese hand (module docstring; RULES.md §6, §8)."""
    book = dict.fromkeys(seats, 0)
    max_tai = options.get("max_tai")
    dealer_extra_ = dealer_extra(streak, options, house_rules)
    for win in entry.winners:
        tai = win.value if max_tai is None else min(win.value, max_tai)
        for payer in taiwan_payers(entry, win, seats):
            extra = dealer_extra_ if dealer in (payer, win.player) else 0
            amount = stakes.base + stakes.per_tai * (tai + extra)
            book[payer] -= amount
            book[win.player] += amount
    return book


def taiwan_payers(entry: HandEntry, win: Winner, seats: Sequence[str]) -> tuple[str, ...]:
    """The players who pay `win` in a Taiwanese hand."""
    if win.event == "seven_flowers_rob":
        return (entry.discarder,)
    if win.event == "eight_flowers" or entry.by == "self_draw":
        return tuple([p for p in seats if p != win.player])
    return (entry.discarder,)


def false_win_penalty(ruleset: str, options: Mapping, house_rules: Mapping = _NONE) -> dict[str, int]:
    """The 詐胡 penalty in force: the house rules' ``false_win``, else ``{"as_self_draw": max_tai or 8}``
    (Taiwanese) or ``{"as_self_draw": 10}`` (``shanghai``), RULES.md §8."""
    if "false_win" in house_rules:
        return dict(house_rules["false_win"])
    return {"as_self_draw": options.get("max_tai") or DEFAULT_FALSE_WIN[ruleset]}


def false_win_payments(entry: HandEntry, seats: Sequence[str], ruleset: str, dealer: str, streak: int,
                       stakes: Stakes, options: Mapping, house_rules: Mapping = _NONE) -> dict[str, int]:
    """詐胡: the offender pays each of the three others (RULES.md §8): ``{"amount": A}`` A each, or
    ``{"as_self_draw": N}`` what a self-drawn N 台 would pay, dealer extra included (shanghai: N × 底分,
    never doubled by 荒番).

    (Ben and Dan get 100 + 20 × 8; Amy deals with streak 1: 100 + 20 × (8 + 3).)

    >>> seats = ("Amy", "Ben", "Cat", "Dan")
    >>> false_win_payments(HandEntry(false_win="Cat"), seats, "taiwan", "Amy", 1, Stakes(100, 20), {})
    {'Amy': 320, 'Ben': 260, 'Cat': -840, 'Dan': 260}
    """
    penalty = false_win_penalty(ruleset, options, house_rules)
    offender = entry.false_win
    book = dict.fromkeys(seats, 0)
    for player in seats:
        if player == offender:
            continue
        if "amount" in penalty:
            amount = penalty["amount"]
        elif ruleset == "shanghai":
            amount = penalty["as_self_draw"] * stakes.base
        else:
            extra = dealer_extra(streak, options, house_rules) if dealer in (player, offender) else 0
            amount = stakes.base + stakes.per_tai * (penalty["as_self_draw"] + extra)
        book[player] += amount
        book[offender] -= amount
    return book


def shanghai_payments(
    entry: HandEntry, seats: Sequence[str], stakes: Stakes, wasteland_hand: bool
) -> dict[str, int]:
    """Who pays whom in a Shanghai hand (module docstring; RULES.md §7)."""
    book = dict.fromkeys(seats, 0)
    for win in entry.winners:
        share = win.value * stakes.base * (2 if wasteland_hand else 1)
        for payer, shares in shanghai_payers(entry, win, seats):
            book[payer] -= shares * share
            book[win.player] += shares * share
    return book


def shanghai_payers(entry: HandEntry, win: Winner, seats: Sequence[str]) -> list[tuple[str, int]]:
    """`(payer, shares)` for `win` in a Shanghai hand, 三口 relations included."""
    related = related_players(entry.three_mouth, win.player, seats)
    if win.event == "eight_flowers" or entry.by == "self_draw":
        if related:
            return [(p, SELF_DRAW_SHARES) for p in related]
        return [(p, 1) for p in seats if p != win.player]
    if entry.by == "robbing_kong":
        return [(entry.discarder, ROBBED_KONG_SHARES)]
    if not related:
        return [(entry.discarder, 1)]
    if entry.discarder in related or not entry.discarder_ready:
        return [(entry.discarder, 2)]
    return [(entry.discarder, 1)] + [(p, 1) for p in related]


def related_players(pairs: Sequence[tuple[str, str]], player: str, seats: Sequence[str]) -> list[str]:
    """The players with a 三口 relation to `player` (relations are mutual), in seat order."""
    if not pairs:  # most hands: no 三口
        return []
    partners = {b if a == player else a for a, b in pairs if player in (a, b)}
    return [p for p in seats if p in partners]

