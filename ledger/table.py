"""The table (牌桌) through an evening: dealer, streak, winds, 將, 荒番, seats, totals.

Everything is derived by replaying the events in order (`ledger.entries`): voiding or correcting a hand
is replaying without it or with the new one. Whether a hand is valid depends only on who is seated,
never on who deals, so a void never invalidates a later hand. Who deals next: Taiwanese, the dealer
keeps the deal on a dealer win or a draw; shanghai, the winner deals (several: the first after the
discarder). The round wind moves on whenever the deal passes seat 0 again. 詐胡 moves nothing on
(RULES.md §8). 荒番 (shanghai): H from the dice doubles the shares; a win lowers H, a draw raises it.
A change of house rules or seats takes effect from the next hand, so a replay meets it at its place.

>>> table = Table.start("taiwan", ["Amy", "Ben", "Cat", "Dan"], {"base": 100, "per_tai": 20}, {})
>>> table.apply(HandEntry(winners=(Winner("Ben", 3),), by="discard", discarder="Cat")).payments
{'Amy': 0, 'Ben': 160, 'Cat': -160, 'Dan': 0}
>>> table.state.to_dict()["dealer"], table.state.seat_wind("Amy")
('Ben', 'N')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ledger import tiles
from ledger.entries import (
    RULESETS,
    HandEntry,
    HouseRulesChange,
    SeatChange,
    Winner,
    check_hand,
    check_name,
    check_seat_change,
)
from ledger.errors import InvalidRequest
from ledger.names import check_unlike
from ledger.payments import (
    Stakes,
    check_money,
    dice_wasteland,
    false_win_payments,
    shanghai_payments,
    stakes_from,
    taiwan_payments,
)
from ledger.house_rules import check_house_rules, profile_ruleset
from ledger.rules import get_ruleset
from ledger.settlement import MAX_EXACT_PARTICIPANTS

__all__ = [
    "WINDS", "Winner", "HandEntry", "SeatChange", "HouseRulesChange", "Stakes", "TableState", "HandResult",
    "PlayedEvening", "Table", "play", "table_options",
]

WINDS = tuple(tiles.WIND_LETTERS)  # E S W N, turn order from the dealer (R6)
#: Everyone who ever sat, at most: settlement finds the fewest transfers for this many (`ledger.settlement`).
MAX_PARTICIPANTS = MAX_EXACT_PARTICIPANTS


class TableState(NamedTuple):
    """Dealer, streak, winds, 將, hands played and 荒番 between two hands; a named tuple (half a frozen
    dataclass's cost, and a replay builds one per hand)."""

    seats: tuple[str, str, str, str]
    dealer_seat: int = 0
    streak: int = 0
    round_wind: str = "E"
    jiang: int = 1
    hands_played: int = 0
    wasteland: int = 0

    @property
    def dealer(self) -> str:
        """The dealer's (莊家) name."""
        return self.seats[self.dealer_seat]

    @property
    def hand_wind(self) -> str:
        """The 局 wind: the wind of the dealer's seat in the round."""
        return WINDS[self.dealer_seat]

    def seat_wind(self, player: str) -> str:
        """The player's 門風: E for the dealer, then S, W, N in turn order."""
        return WINDS[(self.seats.index(player) - self.dealer_seat) % 4]

    def to_dict(self) -> dict:
        """The `state` object of API.md (plus `seats` and `jiang`), the properties spelt out: built twice a hand."""
        return {
            "dealer": self.seats[self.dealer_seat],
            "streak": self.streak,
            "round_wind": self.round_wind,
            "hand_wind": WINDS[self.dealer_seat],
            "hands_played": self.hands_played,
            "wasteland": self.wasteland,
            "seats": list(self.seats),
            "jiang": self.jiang,
        }


class HandResult(NamedTuple):
    """One played hand: the state before and after, `wasteland` (H after the dice), the payments."""

    number: int
    entry: HandEntry
    before: TableState
    after: TableState
    wasteland: int
    payments: dict[str, int]

    @property
    def wasteland_hand(self) -> bool:
        """True for a 荒番 hand (shares doubled)."""
        return self.wasteland > 0

    def to_dict(self) -> dict:
        """The hand as API.md's response shows it (without the engine's scores)."""
        return {
            "number": self.number,
            "dealer": self.before.dealer,
            "streak": self.before.streak,
            "round_wind": self.before.round_wind,
            "hand_wind": self.before.hand_wind,
            "wasteland": self.wasteland,
            "payments": dict(self.payments),
            "state": self.after.to_dict(),
        }


class PlayedEvening(NamedTuple):
    """What `play` returns."""

    results: list[HandResult]
    state: TableState
    totals: dict[str, int]


def table_options(ruleset: str, options: Mapping | None) -> dict:
    """Check the session options for `ruleset` and fill in the defaults (the rule set's own options).

    >>> table_options("taiwan", {"max_tai": 10})
    {'dealer_bonus': True, 'multiple_winners': False, 'max_tai': 10}
    """
    return get_ruleset(ruleset).parse_options(options)


class Table:
    """One table's evening so far; `apply` events in order (see the module docstring)."""

    def __init__(self, ruleset: str, stakes: Stakes, options: dict, seats: tuple[str, ...],
                 house_rules: Mapping | None = None, *, max_participants: int = MAX_PARTICIPANTS):
        self.ruleset = ruleset
        self.max_participants = max_participants
        self.stakes = stakes
        self.options = options
        #: The house rules (checked, canonical: `ledger.house_rules`), `{}` for none.
        self.house_rules = house_rules or {}
        #: The events a winner may bring that are scored alone (八仙過海 …), as the house rules leave them.
        self.events = profile_ruleset(ruleset, self.house_rules).alone
        self.state = TableState(seats=seats)
        self.totals: dict[str, int] = dict.fromkeys(seats, 0)
        self.results: list[HandResult] = []

    @classmethod
    def start(
        cls, ruleset: str, players: Sequence[str], stakes: Stakes | Mapping, options: Mapping | None = None,
        house_rules: Mapping | None = None, *, max_participants: int = MAX_PARTICIPANTS,
    ) -> Table:
        """A new table: players in turn order (the first deals first), stakes, options, house rules.

        `max_participants` bounds everyone who may ever sit, so that the evening can be settled."""
        if ruleset not in RULESETS:
            raise InvalidRequest(f"unknown ruleset {ruleset!r}; use one of {', '.join(RULESETS)}", "ruleset")
        seats = _check_players(players)
        options = table_options(ruleset, options)
        return cls(ruleset, stakes_from(stakes, ruleset), options, seats,
                   check_house_rules(ruleset, house_rules, options), max_participants=max_participants)

    def validate(self, event: HandEntry | SeatChange | HouseRulesChange) -> None:
        """Raise `InvalidRequest` (with `field`) unless `event` can happen now."""
        if isinstance(event, SeatChange):
            check_seat_change(event, self.state.seats)
            self._check_newcomer(event.player)
        elif isinstance(event, HouseRulesChange):
            self._checked_rules(event)
        else:
            check_hand(event, self.ruleset, self.state.seats, self.options, self.events)

    def apply(self, event: HandEntry | SeatChange | HouseRulesChange) -> HandResult | None:
        """Validate and record one event; a hand returns its `HandResult`. A rejected event changes nothing."""
        if isinstance(event, HouseRulesChange):
            self.house_rules = self._checked_rules(event)
            self.events = profile_ruleset(self.ruleset, self.house_rules).alone
            return None
        self.validate(event)
        if isinstance(event, SeatChange):
            self._seat(event)
            return None
        return self._play(event)

    def _checked_rules(self, change: HouseRulesChange) -> dict:
        """The new house rules, checked and canonical; the rules in force again are no change (422)."""
        rules = check_house_rules(self.ruleset, change.rules, self.options)
        if rules == self.house_rules:
            raise InvalidRequest("the table plays under these house rules already", "house_rules")
        return rules

    def _check_newcomer(self, player: str) -> None:
        """Refuse a player who never sat here if the session has its `max_participants` already."""
        if player not in self.totals:
            check_unlike(player, self.totals, "player")  # Eve is back, not a second ＥＶＥ
        if player not in self.totals and len(self.totals) >= self.max_participants:
            raise InvalidRequest(f"a session has at most {self.max_participants} participants (everyone who "
                                 f"ever sat): {player} would be one more; seat someone who played already",
                                 "player")

    def _seat(self, change: SeatChange) -> None:
        seats = list(self.state.seats)
        seats[change.seat] = change.player
        self.state = self.state._replace(seats=tuple(seats))
        self.totals.setdefault(change.player, 0)

    def _play(self, entry: HandEntry) -> HandResult:
        before = self.state
        wasteland = before.wasteland + dice_wasteland(entry.dice) if self.ruleset == "shanghai" else 0
        payments = self._payments(entry, before, wasteland > 0)
        after = _next_state(before, entry, self.ruleset, wasteland)
        result = HandResult(len(self.results) + 1, entry, before, after, wasteland, payments)
        totals = self.totals
        for player, amount in payments.items():  # checked before anything changes
            check_money(amount, f"{player}'s payment of this hand", "hand")
            check_money(totals[player] + amount, f"{player}'s total after this hand", "hand")
        for player, amount in payments.items():
            totals[player] += amount
        self.results.append(result)
        self.state = after
        return result

    def _payments(self, entry: HandEntry, state: TableState, wasteland_hand: bool) -> dict[str, int]:
        if entry.false_win is not None:
            return false_win_payments(entry, state.seats, self.ruleset, state.dealer, state.streak, self.stakes,
                                      self.options, self.house_rules)
        if self.ruleset == "shanghai":
            return shanghai_payments(entry, state.seats, self.stakes, wasteland_hand)
        return taiwan_payments(entry, state.seats, state.dealer, state.streak, self.stakes, self.options,
                               self.house_rules)


def play(
    ruleset: str,
    players: Sequence[str],
    stakes: Stakes | Mapping,
    options: Mapping | None,
    events: Iterable[HandEntry | SeatChange | HouseRulesChange],
    house_rules: Mapping | None = None,
) -> PlayedEvening:
    """Replay an evening from the start: every hand's result, the state now, the totals."""
    table = Table.start(ruleset, players, stakes, options, house_rules)
    for event in events:
        table.apply(event)
    return PlayedEvening(table.results, table.state, table.totals)


def _check_players(players: object) -> tuple[str, str, str, str]:
    if not isinstance(players, list | tuple) or len(players) != 4:
        raise InvalidRequest("players must list exactly four names, in turn order", "players")
    for i, name in enumerate(players):
        check_name(name, f"players[{i}]")
        if name in players[:i]:
            raise InvalidRequest(f"{name} is listed twice", f"players[{i}]")
        check_unlike(name, players[:i], f"players[{i}]")
    return tuple(players)


def _next_state(state: TableState, entry: HandEntry, ruleset: str, wasteland: int) -> TableState:
    """The state after `entry`; a false win (詐胡) moves nothing on: the hand is played again (RULES.md §8)."""
    if entry.false_win is not None:
        return state._replace(hands_played=state.hands_played + 1)
    dealer_seat = _next_dealer_seat(state, entry, ruleset)
    round_wind, jiang = state.round_wind, state.jiang
    if dealer_seat < state.dealer_seat:  # the deal passed seat 0 again: the next round
        round_wind = WINDS[(WINDS.index(round_wind) + 1) % 4]
        if round_wind == "E":
            jiang += 1
    # Positional, in the order of the fields: a named tuple built with keywords costs
    # twice as much, and a replay builds one for every hand.
    return TableState(
        state.seats,
        dealer_seat,
        state.streak + 1 if dealer_seat == state.dealer_seat else 0,  # streak
        round_wind,
        jiang,
        state.hands_played + 1,  # hands_played
        _next_wasteland(entry, ruleset, wasteland),  # wasteland
    )


def _next_dealer_seat(state: TableState, entry: HandEntry, ruleset: str) -> int:
    if entry.draw is not None:
        return state.dealer_seat
    if ruleset != "shanghai":  # the dealer keeps the deal by winning, else it passes on
        dealer = state.seats[state.dealer_seat]
        for win in entry.winners:
            if win.player == dealer:
                return state.dealer_seat
        return (state.dealer_seat + 1) % 4
    winners = [state.seats.index(win.player) for win in entry.winners]
    if len(winners) == 1:
        return winners[0]
    discarder_seat = state.seats.index(entry.discarder)
    return min(winners, key=lambda seat: (seat - discarder_seat) % 4)


def _next_wasteland(entry: HandEntry, ruleset: str, wasteland: int) -> int:
    if ruleset != "shanghai":
        return 0
    return wasteland + 1 if entry.draw is not None else max(wasteland - 1, 0)
