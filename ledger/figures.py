"""Group statistics (牌友會戰績): an evening's stored hands -> one small `Figures` per player, and their sums.

Standings must answer quickly over hundreds of evenings, so they never re-score: each evening is
summarised once from what its entries store (`ledger.recorder`), and standings add `Figures` up (in any
order). A voided hand gives nothing; a deal-in (放槍) counts once per hand however many won on it, and a
八仙過海 / 七搶一 is nobody's; patterns come only from full entries; `against` (who paid whom, RULES.md
§6–§8) always sums to `net`. The longest dealer streak is the highest 連n dealt at: a 詐胡 is replayed
at the same n, and a substitute deals on at the seat's streak.

(Amy self-draws 2 台 as dealer: 50 + 10 × (2 + 1) = 80 from each; then deals in Ben's 3 台 on streak 1:
50 + 10 × (3 + 3) = 110. Against Ben: 80 − 110.)

>>> evening = RecordedEvening("s1", "Friday", datetime.date(2026, 11, 27), "taiwan", [
...     {"kind": "hand", "number": 1, "void": False,
...      "body": {"winners": [{"player": "Amy", "tai": 2}], "by": "self_draw"},
...      "result": {"dealer": "Amy", "streak": 0, "before": {"seats": ["Amy", "Ben", "Cat", "Dan"]},
...                 "payments": {"Amy": 240, "Ben": -80, "Cat": -80, "Dan": -80},
...                 "scores": [{"player": "Amy", "tai": 2, "score": None}]}},
...     {"kind": "hand", "number": 2, "void": False,
...      "body": {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Amy"},
...      "result": {"dealer": "Amy", "streak": 1, "before": {"seats": ["Amy", "Ben", "Cat", "Dan"]},
...                 "payments": {"Amy": -110, "Ben": 110, "Cat": 0, "Dan": 0},
...                 "scores": [{"player": "Ben", "tai": 3, "score": None}]}}],
...     {"Amy": 130, "Ben": 30, "Cat": -80, "Dan": -80})
>>> amy = evening_figures(evening)["Amy"]
>>> amy.net, amy.hands, amy.wins, amy.self_draws, amy.deal_ins, amy.longest_dealer_streak
(130, 2, 1, 1, 1, 2)
>>> amy.against
{'Ben': -30, 'Cat': 80, 'Dan': 80}
"""
from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ledger.entries import HAND

DEALT_IN_BY = ("discard", "robbing_kong")  # a tile someone threw (or a kong they added) was won
NOT_A_DEAL_IN = ("eight_flowers", "seven_flowers_rob")  # events no tile was thrown to


def unit_of(ruleset: str) -> str:
    """The unit of a win's value: `points` (of one share, in 底分) in shanghai, else `tai` (台)."""
    return "points" if ruleset == "shanghai" else "tai"


@dataclass(frozen=True)
class RecordedEvening:
    """What the server builds from a session and its entries (as stored, voided ones included)."""

    id: str
    name: str
    day: datetime.date  # the local date the evening started
    ruleset: str
    entries: Sequence[Mapping]  # each {"kind", "number", "body", "void", "result"}, by position
    totals: Mapping[str, int]  # the evening's stored totals by player name


class EveningRef(NamedTuple):
    """An evening as a member page names it."""

    session: str
    name: str
    day: datetime.date
    ruleset: str


@dataclass(frozen=True)
class Figures:
    """One player's figures over one evening, or the sum over several; `value_sums` / `value_wins` by unit."""

    net: int = 0
    evenings: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    full_hands: int = 0
    quick_hands: int = 0
    full_wins: int = 0
    value_sums: Mapping[str, int] = field(default_factory=dict)
    value_wins: Mapping[str, int] = field(default_factory=dict)
    biggest: Mapping | None = None
    longest_dealer_streak: int = 0
    patterns: Mapping[str, int] = field(default_factory=dict)
    against: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        """A JSON-ready dict (what the server stores per evening and player)."""
        return {"net": self.net, "evenings": self.evenings, "hands": self.hands, "wins": self.wins,
                "self_draws": self.self_draws, "deal_ins": self.deal_ins, "full_hands": self.full_hands,
                "quick_hands": self.quick_hands, "full_wins": self.full_wins,
                "value_sums": dict(self.value_sums), "value_wins": dict(self.value_wins),
                "biggest": dict(self.biggest) if self.biggest else None,
                "longest_dealer_streak": self.longest_dealer_streak,
                "patterns": dict(self.patterns), "against": dict(self.against)}

    @classmethod
    def from_json(cls, data: Mapping) -> Figures:
        """The inverse of `to_json`, sharing `data`'s inner dicts, built without the frozen dataclass's `__init__`:
        standings read one per member per evening (``benchmarks/groups.py``)."""
        figures = object.__new__(cls)
        figures.__dict__.update({name: data[name] for name in _FIELDS})
        return figures

    def __add__(self, other: Figures) -> Figures:
        if not isinstance(other, Figures):
            return NotImplemented
        return total([self, other])


_FIELDS = tuple(Figures.__dataclass_fields__)
_COUNTS = ("net", "evenings", "hands", "wins", "self_draws", "deal_ins", "full_hands", "quick_hands", "full_wins")
_TALLIES = ("value_sums", "value_wins", "patterns", "against")
ROW_TALLIES = ("value_sums", "value_wins")  # what `standing_row` reads of the tallies


def total(figures: Iterable[Figures], tallies: Sequence[str] = _TALLIES) -> Figures:
    """The sum of any number of `Figures` (none: all zero) in one pass per field; ties of the biggest hand by unit,
    evening and hand (order never matters); only `ROW_TALLIES` summed of `tallies`, as a standings row shows."""
    fields = [one.__dict__ for one in figures]
    counts = {name: sum([one[name] for one in fields]) for name in _COUNTS}
    summed = {name: _summed([one[name] for one in fields]) if name in tallies else {} for name in _TALLIES}
    candidates = [one["biggest"] for one in fields if one["biggest"] is not None]
    return Figures(**counts, **summed, biggest=min(candidates, key=_rank) if candidates else None,
                   longest_dealer_streak=max([one["longest_dealer_streak"] for one in fields], default=0))


def _summed(tallies: list[Mapping[str, int]]) -> dict[str, int]:
    """`{key: count}` tallies added key by key."""
    into: dict[str, int] = {}
    get = into.get
    for tally in tallies:
        for key, count in tally.items():
            into[key] = get(key, 0) + count
    return into


def _add_tally(into: dict[str, int], tally: Mapping[str, int]) -> None:
    for key, count in tally.items():
        into[key] = into.get(key, 0) + count


def _rank(hand: Mapping) -> tuple:
    """Sort key of a biggest-hand candidate: the first is the biggest (a total order)."""
    return (-hand["value"], hand["unit"], hand["session"], hand["number"])


# -- one evening ------------------------------------------------------------------


class _Tally:
    """One player's figures while an evening is read, hand by hand."""

    def __init__(self):
        self.counts = dict.fromkeys(_COUNTS, 0)
        self.counts["evenings"] = 1
        self.value_sums: dict[str, int] = {}
        self.value_wins: dict[str, int] = {}
        self.patterns: dict[str, int] = {}
        self.against: dict[str, int] = {}
        self.biggest: dict | None = None
        self.longest_dealer_streak = 0

    def figures(self) -> Figures:
        return Figures(**self.counts, value_sums=self.value_sums, value_wins=self.value_wins,
                       biggest=self.biggest, longest_dealer_streak=self.longest_dealer_streak,
                       patterns=self.patterns, against=self.against)


def evening_figures(evening: RecordedEvening) -> dict[str, Figures]:
    """Each player's `Figures` for one evening, by name: everyone in the totals or seated (a substitute who
    never sat has `evenings` 1 and nothing else)."""
    tallies: dict[str, _Tally] = {name: _Tally() for name in evening.totals}
    unit = unit_of(evening.ruleset)
    for entry in evening.entries:
        if entry["kind"] != HAND or entry["void"]:
            continue
        result, body = entry["result"], entry["body"]
        for player in result["before"]["seats"]:
            tallies.setdefault(player, _Tally()).counts["hands"] += 1
        _count_wins(tallies, body, result, unit, evening.id, entry["number"])
        for payer, payee, amount in payments_between(body, result):
            _add_tally(tallies[payee].against, {payer: amount})
            _add_tally(tallies[payer].against, {payee: -amount})
            tallies[payee].counts["net"] += amount
            tallies[payer].counts["net"] -= amount
    for name, streak in dealer_streaks(evening.entries).items():
        tallies[name].longest_dealer_streak = streak
    return {name: tally.figures() for name, tally in tallies.items()}


def dealer_streaks(entries: Iterable[Mapping]) -> dict[str, int]:
    """Each dealer of an evening's stored entries -> 1 + the highest 連n it dealt a counted hand at (the
    figure `longest_dealer_streak`; also what migration 0017 writes into figures stored before)."""
    streaks: dict[str, int] = {}
    for entry in entries:
        if entry["kind"] == HAND and not entry["void"]:
            dealer, streak = entry["result"]["dealer"], entry["result"]["streak"] + 1
            streaks[dealer] = max(streaks.get(dealer, 0), streak)
    return streaks


def _count_wins(tallies: dict[str, _Tally], body: Mapping, result: Mapping, unit: str, session: str,
                number: int) -> None:
    """Wins, self-draws, deal-ins, values, patterns and full/quick hands of one hand."""
    scores = result.get("scores") or []
    if not scores:
        return
    full = any(score["score"] is not None for score in scores)
    for player in result["before"]["seats"]:
        tallies[player].counts["full_hands" if full else "quick_hands"] += 1
    events = [_event(winner) for winner in body.get("winners", [])]
    for score in scores:
        tally = tallies[score["player"]]
        value = score[unit]
        tally.counts["wins"] += 1
        tally.counts["self_draws"] += int(body.get("by") == "self_draw")
        _add_tally(tally.value_sums, {unit: value})
        _add_tally(tally.value_wins, {unit: 1})
        hand = {"value": value, "unit": unit, "session": session, "number": number}
        if tally.biggest is None or _rank(hand) < _rank(tally.biggest):
            tally.biggest = hand
        if score["score"] is not None:
            tally.counts["full_wins"] += 1
            _add_tally(tally.patterns, {pattern["id"]: 1 for pattern in score["score"]["patterns"]})
    if body.get("by") in DEALT_IN_BY and body.get("discarder") and not any(e in NOT_A_DEAL_IN for e in events):
        tallies[body["discarder"]].counts["deal_ins"] += 1


def _event(winner: Mapping) -> str | None:
    """The event of a winner as entered: quick `{"event"}` or full `{"win": {"event"}}`."""
    return winner.get("event") or (winner.get("win") or {}).get("event")


def figures_by_member(by_player: Mapping[str, Figures], members: Mapping[str, str]) -> dict[str, Figures]:
    """An evening's figures per player name -> per member id; two names of one member (a merge) add up, and a
    member's money against itself is left out."""
    found: dict[str, Figures] = {}
    for player, figures in by_player.items():
        member = members[player]
        shape = figures.to_json()
        against: dict[str, int] = {}
        for other, amount in shape["against"].items():
            if members[other] != member:
                against[members[other]] = against.get(members[other], 0) + amount
        mapped = Figures.from_json({**shape, "against": against})
        found[member] = found[member] + mapped if member in found else mapped
    return found


def payments_between(body: Mapping, result: Mapping) -> list[tuple[str, str, int]]:
    """Who paid whom in one stored hand: `(payer, payee, amount)`, amounts positive, summing to `payments`.

    Several winners on one discard are each paid by the discarder alone (RULES.md §6, §7).

    >>> payments_between({"winners": [{"player": "Ben", "points": 2}, {"player": "Dan", "points": 4}],
    ...                   "by": "discard", "discarder": "Cat"},
    ...                  {"payments": {"Amy": 0, "Ben": 20, "Cat": -60, "Dan": 40},
    ...                   "scores": [{"player": "Ben"}, {"player": "Dan"}]})
    [('Cat', 'Ben', 20), ('Cat', 'Dan', 40)]
    """
    payments = result.get("payments") or {}
    if not payments:
        return []
    if body.get("false_win") is not None:
        offender = body["false_win"]
        return [(offender, player, amount) for player, amount in payments.items() if amount > 0]
    winners = [score["player"] for score in result.get("scores") or []]
    if len(winners) == 1:
        [winner] = winners
        return [(player, winner, -amount) for player, amount in payments.items() if amount < 0]
    return [(body["discarder"], winner, payments[winner]) for winner in winners if payments[winner] > 0]


# -- sums: standings and a member's page -----------------------------------------


def standing_row(member: str, name: str, figures: Figures) -> dict:
    """One row of the standings: the figures, the rates (exact fractions of `hands`, None without) and averages.

    >>> row = standing_row("m1", "Amy", Figures(net=300, evenings=1, hands=8, wins=3, deal_ins=1,
    ...                    value_sums={"tai": 10}, value_wins={"tai": 3}))
    >>> row["win_rate"], row["deal_in_rate"], row["average_per_win"]
    (0.375, 0.125, [{'unit': 'tai', 'average': 3.33, 'wins': 3}])
    """
    hands = figures.hands
    return {
        "member": member, "name": name, "net": figures.net, "evenings": figures.evenings, "hands": hands,
        "wins": figures.wins, "self_draws": figures.self_draws, "deal_ins": figures.deal_ins,
        "win_rate": figures.wins / hands if hands else None,
        "deal_in_rate": figures.deal_ins / hands if hands else None,
        "average_per_win": [{"unit": unit, "average": round(figures.value_sums[unit] / wins, 2), "wins": wins}
                            for unit, wins in sorted(figures.value_wins.items()) if wins],
        "biggest_hand": dict(figures.biggest) if figures.biggest else None,
        "longest_dealer_streak": figures.longest_dealer_streak - 1 if figures.longest_dealer_streak else None,
        "full_hands": figures.full_hands, "quick_hands": figures.quick_hands,
    }


def standings(rows: Iterable[tuple[str, Figures]], names: Mapping[str, str], min_evenings: int = 0) -> list[dict]:
    """The standings: one row per member with at least `min_evenings` evenings, best `net` first, ties by name."""
    by_member: dict[str, list[Figures]] = {}
    for member, figures in rows:
        by_member.setdefault(member, []).append(figures)
    table = [standing_row(member, names.get(member, member), total(figures, ROW_TALLIES))
             for member, figures in by_member.items()]
    table = [row for row in table if row["evenings"] >= min_evenings]
    return sorted(table, key=lambda row: (-row["net"], row["name"], row["member"]))


def member_page(rows: Iterable[tuple[EveningRef, Figures]], member: str, names: Mapping[str, str],
                aliases: Sequence[str] = ()) -> dict:
    """One member's page from their figures of each evening: `series` by day, `head_to_head` best net first,
    `patterns` by rule set (a pattern id names a different pattern in each)."""
    rows = sorted(rows, key=lambda row: row[0].day)
    name = names.get(member, member)
    overall = total(figures for _, figures in rows)
    by_ruleset: dict[str, list[Figures]] = {}
    for ref, figures in rows:
        by_ruleset.setdefault(ref.ruleset, []).append(figures)
    series, cumulative = [], 0
    for ref, figures in rows:
        cumulative += figures.net
        series.append({"session": ref.session, "name": ref.name, "day": ref.day.isoformat(),
                       "net": figures.net, "cumulative": cumulative})
    head_to_head = sorted(({"member": other, "name": names.get(other, other), "net": net}
                           for other, net in overall.against.items()),
                          key=lambda row: (-row["net"], row["name"]))
    return {
        "member": {"id": member, "name": name, "aliases": list(aliases)},
        "overall": standing_row(member, name, overall),
        "by_ruleset": {ruleset: standing_row(member, name, total(figures, ROW_TALLIES))
                       for ruleset, figures in sorted(by_ruleset.items())},
        "patterns": sorted(({"pattern": pattern, "ruleset": ruleset, "count": count}
                            for ruleset, figures in by_ruleset.items()
                            for pattern, count in _summed([one.patterns for one in figures]).items()),
                           key=lambda row: (-row["count"], row["pattern"], row["ruleset"])),
        "full_hands": overall.full_hands, "full_wins": overall.full_wins,
        "series": series,
        "head_to_head": head_to_head,
    }
