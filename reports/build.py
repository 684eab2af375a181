"""Build a `Report` from a session's stored entries (`ledger.store`, `ledger.recorder`).

Each entry carries the `result` its replay derived (the state a hand was played in, its payments and
scores; who sat down where): the report reads those and never recomputes money, so the PDF and CSV
show exactly what the API serves. Anything with the attributes of `ledger.store.SessionRow` and
`EntryRow` will do; `audits` mark the corrected hands.

>>> import datetime
>>> from ledger.recorder import Recorder
>>> from types import SimpleNamespace as Row
>>> players, stakes = ["Amy", "Ben", "Cat", "Dan"], {"base": 100, "per_tai": 20}
>>> bodies = [("hand", 1, {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"}),
...           ("seat", None, {"seat": 2, "player": "Eve"}),
...           ("hand", 2, {"draw": True})]
>>> recorder = Recorder.start("taiwan", players, stakes, {})
>>> entries = [Row(kind=k, number=n, void=False, body=b, result=recorder.record(k, b)) for k, n, b in bodies]
>>> session = Row(name="Friday", created_at=datetime.datetime(2024, 5, 3, 12), ruleset="taiwan",
...               players=players, stakes=stakes, options={})
>>> report = build_report(session, entries)
>>> report.totals
{'Amy': 0, 'Ben': 160, 'Cat': -160, 'Dan': 0, 'Eve': 0}
>>> [(s.seat, s.player, s.first_hand, s.last_hand) for s in report.seat_history if s.seat == 2]
[(2, 'Cat', 1, 1), (2, 'Eve', 2, 2)]
"""
from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ledger import rules
from ledger.entries import EVENTS, HAND, RULES, value_field
from ledger.explain import explain_hand
from ledger.settlement import settle
from reports.model import HandLine, PatternLine, Report, SeatSpell, SessionHeader, WinnerLine
from words import TRADITIONAL, language, pattern_name

SEAT = "seat"


def build_report(session: Any, entries: Iterable[Any], round_to: int | None = None,
                 audits: Iterable[Any] = (), lang: str = TRADITIONAL) -> Report:
    """Everything the report shows of `session` and its `entries` (in order), settled with `round_to`, pattern
    names in `lang` (the stored results keep the rule set's own)."""
    lang = language(lang)
    corrected = {audit.number: audit.at for audit in audits if audit.action != "void"}  # the latest wins
    book = SeatBook(session.players)
    participants = list(session.players)
    hands, changes = [], []
    for entry in entries:
        if entry.kind == RULES:
            if not entry.void:  # one a correction of the whole evening replaced is not what was played
                changes.append((entry.result["from_hand"], entry.result["house_rules"]))
        elif entry.kind == SEAT:
            book.change(entry.result["seat"], entry.result["player"])
            if entry.result["player"] not in participants:
                participants.append(entry.result["player"])
        elif entry.kind == HAND:
            hands.append(hand_line(entry, session, corrected.get(entry.number), lang))
            book.play(hands[-1])
    totals = {player: sum(hand.payments.get(player, 0) for hand in hands) for player in participants}
    return Report(
        header=session_header(session, tuple(changes)),
        participants=tuple(participants),
        seat_history=book.spells(),
        hands=tuple(hands),
        totals=totals,
        settlement=settle(totals, round_to),
    )


def session_header(session: Any, house_rules_changes: tuple = ()) -> SessionHeader:
    """The report header of a stored session; the date is the day it was created (UTC); `house_rules_changes`
    (the first hand under them, the rules) those made from a hand on."""
    return SessionHeader(
        name=session.name,
        date=_utc_date(session.created_at),
        ruleset=session.ruleset,
        ruleset_name=rules.get_ruleset(session.ruleset).name,
        stakes=dict(session.stakes),
        options=dict(session.options),
        house_rules=dict(opening_rules(session)),
        house_rules_changes=house_rules_changes,
        closed_at=getattr(session, "closed_at", None),
    )


def opening_rules(session: Any) -> Mapping:
    """The house rules the evening started with (``ledger.store.opening_rules``, for any object with its fields)."""
    opening = getattr(session, "opening_house_rules", None)
    return (getattr(session, "house_rules", None) if opening is None else opening) or {}


def _utc_date(moment: datetime.datetime) -> datetime.date:
    """The UTC date of a stored timestamp (naive ones are UTC already, as SQLite returns them)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc)
    return moment.date()


class SeatBook:
    """Who sat in which seat for which hands (替補 history), kept while reading the entries."""

    def __init__(self, seats: Sequence[str]):
        self._open = [SeatSpell(seat, player, None, None) for seat, player in enumerate(seats)]
        self._closed: list[SeatSpell] = []

    def change(self, seat: int, player: str) -> None:
        """`player` takes `seat` from the next hand on."""
        self._closed.append(self._open[seat])
        self._open[seat] = SeatSpell(seat, player, None, None)

    def play(self, hand: HandLine) -> None:
        """Every seated player's spell now includes `hand` (voided hands do not count)."""
        if hand.void:
            return
        self._open = [
            SeatSpell(s.seat, s.player, s.first_hand or hand.number, hand.number) for s in self._open
        ]

    def spells(self) -> tuple[SeatSpell, ...]:
        """All spells, by seat, then in the order they began."""
        return tuple(sorted(self._closed + self._open, key=lambda s: s.seat))


def hand_line(entry: Any, session: Any, corrected_at: datetime.datetime | None = None,
              lang: str = TRADITIONAL) -> HandLine:
    """One stored hand as the report shows it, its payments explained, pattern names in `lang`."""
    result, body, ruleset = entry.result, entry.body, session.ruleset
    return HandLine(
        number=entry.number,
        void=entry.void,
        seats=tuple(result["before"]["seats"]),
        round_wind=result["round_wind"],
        jiang=result["jiang"],
        hand_wind=result["hand_wind"],
        dealer=result["dealer"],
        streak=result["streak"],
        winners=_winner_lines(entry, ruleset, lang),
        by=body.get("by"),
        discarder=body.get("discarder"),
        draw=body.get("reason", "exhausted") if body.get("draw") else None,
        wasteland=result["wasteland"],
        payments=dict(result["payments"]),
        false_win=body.get("false_win"),
        lines=tuple(named_patterns(line, ruleset, lang) for line in explain_hand(
            ruleset, session.stakes, session.options, body, result, result.get("house_rules", opening_rules(session)))),
        corrected_at=corrected_at,
    )


def _winner_lines(entry: Any, ruleset: str, lang: str) -> tuple[WinnerLine, ...]:
    """Played hands: the scores the replay kept. Voided hands: the winners as entered."""
    unit = value_field(ruleset)
    bodies = entry.body.get("winners", [])
    if entry.void:
        return tuple(WinnerLine(w["player"], w.get(unit), unit, (), _event(w, ruleset, lang)) for w in bodies)
    return tuple(
        WinnerLine(score["player"], score[unit], unit, _pattern_lines(score["score"], ruleset, lang),
                   _event(winner, ruleset, lang))
        for score, winner in zip(entry.result["scores"], bodies)
    )


def _event(winner: Mapping, ruleset: str, lang: str) -> str | None:
    """The name of a flower event win (八仙過海, 七搶一, 八花), which changes who pays."""
    event = winner.get("event") or (winner.get("win") or {}).get("event")
    return pattern_name(ruleset, event, lang) if event in EVENTS[ruleset] else None


def _pattern_lines(score: Mapping | None, ruleset: str, lang: str) -> tuple[PatternLine, ...]:
    if not score:
        return ()
    return tuple(PatternLine(_name(p, ruleset, lang), p["value"], p.get("unit", score["unit"]))
                 for p in score["patterns"])


def _name(pattern: Mapping, ruleset: str, lang: str) -> str:
    """A scored pattern's name in `lang`; as stored for a result too old to carry the pattern's id."""
    return pattern_name(ruleset, pattern["id"], lang) if "id" in pattern else pattern["name"]


def named_patterns(line: dict, ruleset: str, lang: str) -> dict:
    """A payment line (`ledger.explain`) whose reasons name their patterns in `lang`."""
    if lang == TRADITIONAL:
        return line
    reasons = [{**reason, "patterns": [{**p, "name": _name(p, ruleset, lang)} for p in reason["patterns"]]}
               if reason.get("patterns") else reason for reason in line["reasons"]]
    return {**line, "reasons": reasons}
