"""Recording an evening (記帳): request bodies as entered -> table events -> stored results.

A session keeps every hand and seat change as entered (API.md, Hands and Seats); this module turns the
bodies into `ledger.table` events and stores, as JSON-ready dicts, what each did: the state it was played in,
the payments, one score per winner, and the house rules its payment lines are explained with. A full entry
is scored at the table *before that hand*, and re-scored on a replay (voiding an earlier hand can move the
deal) unless nothing the score reads of the table changed (`scoring.holds_at`). `Recorder.resume` continues
from a stored state, so appending a hand never replays the evening; `Recorder.replay` starts again.

>>> recorder = Recorder.start("taiwan", ["Amy", "Ben", "Cat", "Dan"], {"base": 100, "per_tai": 20}, {})
>>> result = recorder.record("hand", {"winners": [{"player": "Ben", "tai": 3}],
...                                   "by": "discard", "discarder": "Cat"})
>>> result["payments"], result["after"]["dealer"]
({'Amy': 0, 'Ben': 160, 'Cat': -160, 'Dan': 0}, 'Ben')
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ledger import scoring
from ledger.entries import (
    HAND,
    RULES,
    SEAT,
    WIN_BY,
    HandEntry,
    Winner,
    check_seated,
    hand_from_request,
    house_rules_change_from_request,
    seat_change_from_request,
    value_field,
)
from ledger.errors import InvalidRequest, LedgerError
from ledger.house_rules import check_house_rules, profile_ruleset
from ledger.table import MAX_PARTICIPANTS, WINDS, Table, TableState

FULL_ENTRY_FIELDS = ("hand", "win")
FULL_ENTRY_KEYS = ("player", *FULL_ENTRY_FIELDS)  # all a full-entry winner may have


class Event(NamedTuple):
    """One stored event to replay: kind, body as entered, void flag, hand number, and `earlier`, the result
    stored for this very body (its score kept where the table is as it was)."""

    kind: str
    body: Mapping
    void: bool = False
    number: int | None = None
    earlier: Mapping | None = None


def state_from_dict(data: Mapping) -> TableState:
    """The inverse of `TableState.to_dict`, positional: a named tuple built by keywords costs twice as much."""
    return TableState(
        tuple(data["seats"]),
        WINDS.index(data["hand_wind"]),  # dealer_seat
        data["streak"],
        data["round_wind"],
        data["jiang"],
        data["hands_played"],
        data["wasteland"],
    )


class Recorder:
    """An evening being recorded: a `Table` plus the session's options for scoring."""

    def __init__(self, table: Table, hands_entered: int = 0):
        self.table = table
        #: The session's rule set, house rules and options, looked up and parsed once for every full entry.
        self.scorer = scoring.Scorer(profile_ruleset(table.ruleset, table.house_rules), table.options)
        #: Hands entered so far, voided ones included: the next hand's number is one more.
        self.hands_entered = hands_entered

    @classmethod
    def start(cls, ruleset: str, players: Sequence[str], stakes: Mapping, options: Mapping | None,
              house_rules: Mapping | None = None, *, max_participants: int = MAX_PARTICIPANTS) -> Recorder:
        """A new evening; raises `InvalidRequest` for bad players, stakes, options or house rules."""
        return cls(Table.start(ruleset, players, stakes, options, house_rules, max_participants=max_participants))

    @classmethod
    def resume(cls, ruleset: str, players: Sequence[str], stakes: Mapping, options: Mapping,
               state: Mapping, totals: Mapping[str, int], house_rules: Mapping | None = None, *,
               max_participants: int = MAX_PARTICIPANTS, hands_entered: int = 0) -> Recorder:
        """Continue an evening from its stored state (`TableState.to_dict`) and totals, under the house rules
        in force now, `hands_entered` hands (voided ones included) entered so far."""
        recorder = cls.start(ruleset, players, stakes, options, house_rules, max_participants=max_participants)
        recorder.table.state = state_from_dict(state)
        recorder.table.totals = dict(totals)
        recorder.hands_entered = hands_entered
        return recorder

    @classmethod
    def replay(cls, ruleset: str, players: Sequence[str], stakes: Mapping, options: Mapping,
               events: Iterable[Event], house_rules: Mapping | None = None, *,
               max_participants: int = MAX_PARTICIPANTS) -> tuple[Recorder, list[dict]]:
        """Replay every event from the start under the opening `house_rules`; the recorder and each result. A full
        entry that can no longer be scored raises `InvalidRequest` naming the hand."""
        recorder = cls.start(ruleset, players, stakes, options, house_rules, max_participants=max_participants)
        results = []
        for event in events:
            try:
                results.append(recorder.record(event.kind, event.body, void=event.void,
                                               earlier=event.earlier))
            except LedgerError as error:
                label = {HAND: f"hand {event.number}", SEAT: "seat change"}.get(event.kind, "change of house rules")
                message = f"{label}: {error.message}"
                raise (error.located(message, error.field, event.number) if isinstance(error, InvalidRequest)
                       else InvalidRequest(message, error.field)) from None
        return recorder, results

    @property
    def state(self) -> TableState:
        return self.table.state

    @property
    def totals(self) -> dict[str, int]:
        """Every participant's running total, in order of first appearance."""
        return dict(self.table.totals)

    def record(self, kind: str, body: Mapping, *, void: bool = False, earlier: Mapping | None = None) -> dict:
        """Apply one event (validated first) and return its stored result; `earlier` as in `Event`."""
        if kind == SEAT:
            return self._seat(body)
        if kind == RULES:
            return self._rules(body, void)
        self.hands_entered += 1
        if void:
            return hand_result(self.state, self.state, self.state.wasteland, {}, [], self.table.house_rules)
        return self._hand(body, earlier)

    def _seat(self, body: Mapping) -> dict:
        change = seat_change_from_request(body)
        before = self.state
        self.table.apply(change)
        replaced = before.seats[change.seat]
        return {"seat": change.seat, "player": change.player, "replaces": replaced,
                "before": before.to_dict(), "after": self.state.to_dict()}

    def _rules(self, body: Mapping, void: bool) -> dict:
        """New house rules from the next hand on; a voided change (replaced by a correction) changes nothing."""
        table, before = self.table, self.table.house_rules
        change = house_rules_change_from_request(body)
        if void:  # still a document this table could have played under
            after = check_house_rules(table.ruleset, change.rules, table.options)
        else:
            table.apply(change)
            after = table.house_rules
            self.scorer = scoring.Scorer(profile_ruleset(table.ruleset, after), table.options)
        return {"house_rules": after, "before": before, "from_hand": self.hands_entered + 1}

    def _hand(self, body: Mapping, earlier: Mapping | None) -> dict:
        table = self.table
        if earlier and earlier.get("house_rules", table.house_rules) != table.house_rules:
            earlier = None  # scored under other rules: a stored breakdown does not hold
        entry, scores = hand_entry(body, table.ruleset, table.state, self.scorer, earlier)
        played = table.apply(entry)
        return hand_result(played.before, played.after, played.wasteland, played.payments, scores,
                           table.house_rules)


def hand_result(before: TableState, after: TableState, wasteland: int, payments: Mapping[str, int],
                scores: list[dict], house_rules: Mapping) -> dict:
    """The stored result of one hand (see the module docstring)."""
    state = before.to_dict()
    return {
        "dealer": state["dealer"],
        "streak": state["streak"],
        "round_wind": state["round_wind"],
        "hand_wind": state["hand_wind"],
        "jiang": state["jiang"],
        "wasteland": wasteland,
        "payments": dict(payments),
        "scores": scores,
        "before": state,
        "after": after.to_dict(),
        "house_rules": house_rules,
    }


def same_table(before: Mapping | None, state: TableState) -> bool:
    """Whether a stored state had the seats, dealer and winds of `state` (all a score depends on)."""
    return (bool(before) and before["dealer"] == state.dealer and before["round_wind"] == state.round_wind
            and before["hand_wind"] == state.hand_wind and before["seats"] == list(state.seats))


def hand_entry(body: Mapping, ruleset: str, state: TableState, scorer: scoring.Scorer,
               earlier: Mapping | None = None) -> tuple[HandEntry, list[dict]]:
    """The ledger's `HandEntry` for a hand body, and one score per winner, scored at the winds of `state`
    (the state before the hand) unless `earlier` holds (see `Event`); `body` as its schema loaded it."""
    winners = body.get("winners", ())
    if winners and body.get("draw") is True:
        raise InvalidRequest("a draw (流局) has no winners", "winners")
    value_key = value_field(ruleset)
    scores, scored = [], {}  # `scored`: the `Winner` of each full-entry winner, by index
    for index, winner in enumerate(winners):
        if winner.keys().isdisjoint(FULL_ENTRY_FIELDS):  # quick entry: the value is the table's
            score = {"player": winner.get("player"), value_key: winner.get(value_key), "score": None}
        else:
            scored[index], score = _valued_winner(winner, index, body, ruleset, value_key, state, scorer, earlier)
        scores.append(score)
    if not scored:
        return hand_from_request(body, ruleset), scores
    if len(scored) == len(winners):  # every winner a full entry (the usual case): their `Winner`s are made
        return hand_from_request(body, ruleset, tuple(scored.values())), scores
    # A mix of full and quick entries: the ledger sees the scored winners as quick entries.
    quick_winners = [_quick_form(scored[index], value_key) if index in scored else winner
                     for index, winner in enumerate(winners)]
    return hand_from_request({**body, "winners": quick_winners}, ruleset), scores


def _quick_form(win: Winner, value_key: str) -> dict:
    """A scored full-entry winner as the quick-entry winner it stands for (`tai` or `points`)."""
    quick = {"player": win.player, value_key: win.value}
    if win.event is not None:
        quick["event"] = win.event
    return quick


def _stored(earlier: Mapping | None, state: TableState, index: int, player: str, hand: object,
            win: Mapping) -> Mapping | None:
    """The breakdown stored for winner `index`, if it holds at this table: made here, or nothing it reads of
    the table moved (`scoring.holds_at`), so a void early in a long evening re-scores only a few hands."""
    if not earlier or not earlier.get("before") or index >= len(earlier["scores"]):
        return None
    then, stored = earlier["before"], earlier["scores"][index]
    if same_table(then, state):
        return stored["score"]
    then_state = state_from_dict(then)
    if stored["score"] is None or stored["player"] != player or player not in then_state.seats or hand is None:
        return None
    if scoring.holds_at(stored["score"], hand, win, _seat(then_state, player), _seat(state, player)):
        return stored["score"]
    return None


def _seat(state: TableState, player: str) -> scoring.Seat:
    """What `player`'s score reads of the table in `state`."""
    return scoring.Seat(state.seat_wind(player), state.round_wind, state.hand_wind, player == state.dealer)


def _valued_winner(winner: Mapping, index: int, body: Mapping, ruleset: str, value_key: str, state: TableState,
                   scorer: scoring.Scorer, earlier: Mapping | None) -> tuple[Winner, dict]:
    """A full-entry winner as the ledger's `Winner` and its score record (scored, or kept by `_stored`)."""
    win = _check_full_entry(winner, index, value_key)
    player = winner.get("player")
    if player not in state.seats:
        check_seated(player, state.seats, f"winners[{index}].player")
    win = _win_with_by(win, body.get("by"), index)
    hand = winner.get("hand")
    score = (earlier and _stored(earlier, state, index, player, hand, win)) or _score(hand, win, index, player,
                                                                                     state, scorer)
    value = score["points"] if ruleset == "shanghai" else score["total"]
    event = win.get("event")
    if event not in scorer.ruleset.alone:
        event = None
    return Winner(player, value, event), {"player": player, value_key: value, "score": score}


def _score(hand: object, win: Mapping, index: int, player: str, state: TableState,
           scorer: scoring.Scorer) -> dict:
    """The engine's breakdown of a full entry, the winds and dealer read straight from `state` (no `Seat`
    built per hand of a cold replay)."""
    dealer_seat = state.dealer_seat
    try:
        result = scorer.score(hand, win, seat_wind=state.seat_wind(player), round_wind=state.round_wind,
                              hand_wind=WINDS[dealer_seat], dealer=player == state.seats[dealer_seat])
    except LedgerError as error:
        field = f"winners[{index}]"
        raise error.located(f"{field} ({player}): {error.message}", _subfield(field, error.field)) from None
    return result.to_dict()


def _check_full_entry(winner: Mapping, index: int, value_key: str) -> Mapping:
    """Check a full-entry winner's fields; returns its `win` object (`{}` when it has none)."""
    win = winner.get("win") or {}
    if "hand" not in winner and win.get("event") is None:
        raise InvalidRequest("a full entry needs the winner's hand", f"winners[{index}].hand")
    for key in winner:
        if key not in FULL_ENTRY_KEYS:
            hint = f"give either {value_key} or hand and win, not both" if key == value_key else (
                "a full entry has player, hand and win (the event goes in win.event)")
            raise InvalidRequest(f"{hint}; unexpected {key!r}", f"winners[{index}].{key}")
    return win


def _win_with_by(win: Mapping, by: object, index: int) -> dict:
    """The winner's `win` with the hand's `by` filled in (the two must agree); a plain dict saying it is not copied."""
    if "by" not in win:
        return {**win, "by": by} if by in WIN_BY else dict(win)
    if by in WIN_BY and win["by"] != by:
        raise InvalidRequest(f"win.by is {win['by']!r} but the hand says by {by!r}", f"winners[{index}].win.by")
    return win if type(win) is dict else dict(win)


def _subfield(prefix: str, field: str | None) -> str:
    return prefix if not field else f"{prefix}.{field}"
