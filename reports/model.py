"""The report's data (報表資料): what a settlement sheet shows, as plain values.

`reports.build.build_report` fills a `Report`; the PDF and CSV only render it. Amounts are integers,
positive won, negative paid. A `HandLine`'s `seats` are the four seated at that moment, so a hand also
says who sat where; `Report.participants` is everyone who sat, by first appearance.
"""
from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from ledger.settlement import Settlement, running_totals


@dataclass(frozen=True)
class SessionHeader:
    """The session (牌局) the report is about."""

    name: str
    date: datetime.date
    ruleset: str
    ruleset_name: str
    stakes: Mapping[str, int]
    options: Mapping[str, object]
    house_rules: Mapping[str, object] = dataclasses.field(default_factory=dict)  # those it started with
    #: The changes from a hand on (RULES.md §8) still in force: (the first hand under them, the rules), in order.
    house_rules_changes: tuple[tuple[int, Mapping[str, object]], ...] = ()
    closed_at: datetime.datetime | None = None  # the evening was ended (結束): the sheet is final


@dataclass(frozen=True)
class PatternLine:
    """One scored pattern (番種/台數) of a full-entry win; `unit` is tai, flower, fan or lei."""

    name: str
    value: int
    unit: str


@dataclass(frozen=True)
class WinnerLine:
    """One winner (胡牌者): the value paid on and the patterns (none for a quick entry); `value` None for a voided
    full entry, never scored."""

    player: str
    value: int | None
    unit: str
    patterns: tuple[PatternLine, ...] = ()
    event: str | None = None


@dataclass(frozen=True)
class HandLine:
    """One hand (一局) in the state it was played in; a voided one has `void=True` and no payments; `lines`
    explain every payment (`ledger.explain`)."""

    number: int
    void: bool
    seats: tuple[str, ...]
    round_wind: str
    jiang: int
    hand_wind: str
    dealer: str
    streak: int
    winners: tuple[WinnerLine, ...]
    by: str | None
    discarder: str | None
    draw: str | None
    wasteland: int
    payments: Mapping[str, int]
    false_win: str | None = None
    lines: tuple[Mapping, ...] = ()
    corrected_at: datetime.datetime | None = None


@dataclass(frozen=True)
class SeatSpell:
    """`player` sat in `seat` (0-based) for the hands `first_hand`..`last_hand`, both None if none was played."""

    seat: int
    player: str
    first_hand: int | None
    last_hand: int | None


@dataclass(frozen=True)
class PlayerStats:
    """One participant's evening: hands seated, wins, self-draws, deal-ins, false wins (詐胡: neither), biggest win."""

    player: str
    hands_played: int
    wins: int
    self_draws: int
    deal_ins: int
    biggest_win: int
    biggest_hand: int | None
    false_wins: int = 0


@dataclass(frozen=True)
class Report:
    """Everything the settlement sheet shows."""

    header: SessionHeader
    participants: tuple[str, ...]
    seat_history: tuple[SeatSpell, ...]
    hands: tuple[HandLine, ...]
    totals: Mapping[str, int]
    settlement: Settlement

    @property
    def played(self) -> list[HandLine]:
        """The hands that count (not voided)."""
        return [hand for hand in self.hands if not hand.void]

    def running_totals(self) -> dict[str, list[int]]:
        """Each participant's total before the first hand and after every played hand."""
        return running_totals(self.participants, (hand.payments for hand in self.played))

    def stats(self) -> list[PlayerStats]:
        """Per-participant statistics over the played hands, in participant order."""
        return [player_stats(player, self.played) for player in self.participants]


def player_stats(player: str, hands: list[HandLine]) -> PlayerStats:
    """`PlayerStats` of `player` over `hands` (all of them played, none voided)."""
    won = [hand for hand in hands if any(w.player == player for w in hand.winners)]
    biggest = max(won, key=lambda hand: (hand.payments[player], -hand.number), default=None)
    return PlayerStats(
        player=player,
        hands_played=sum(player in hand.seats for hand in hands),
        wins=len(won),
        self_draws=sum(hand.by == "self_draw" for hand in won),
        deal_ins=sum(hand.discarder == player and bool(hand.winners) for hand in hands),
        biggest_win=biggest.payments[player] if biggest else 0,
        biggest_hand=biggest.number if biggest else None,
        false_wins=sum(hand.false_win == player for hand in hands),
    )
