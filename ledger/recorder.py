"""Recording an evening (記帳): request bodies as entered -> table events -> stored results.

A session keeps every hand and seat change exactly as it was entered (API.md,
Hands and Seats). This module turns those bodies into `ledger.table` events
and records what each one did, as plain JSON-ready dicts:

- Quick entry: each winner brings the 台 (`tai`) or, in shanghai, the points
  of one share (`points`) the table agreed on.
- Full entry: a winner brings `hand` and `win` (the body of `/api/score`);
  `ledger.scoring` counts it with the seat wind (門風), round wind (圈風), 局
  wind and dealer flag of the table *before that hand*. Its `total` (台) or,
  in shanghai, its `points` become the win's value; `win.event` becomes the
  win's event when it changes who pays (八仙過海 / 八花, 七搶一). A full
  entry is re-scored when it is replayed, so voiding or correcting an
  earlier hand that moves the deal also changes its 台; given the result
  stored for the same body (`Event.earlier`), a replay keeps that score
  when the seats, dealer and winds are where they were, or when nothing the
  score reads of the table differs at its new one (`scoring.holds_at`).

`Recorder` holds one `Table`; `record` applies one event (validated first, a
rejected event changes nothing) and returns its stored `result`:

- a hand: `dealer`, `streak`, `round_wind`, `hand_wind`, `jiang`,
  `wasteland` (荒番 H during the hand) as they were when it was played,
  `payments` (the four seated players, summing to zero), `scores` (one per
  winner: `player`, `tai` or `points`, and the engine's breakdown `score`
  for a full entry, else null), `before` and `after` (`TableState.to_dict`),
  and `house_rules`, the house rules it was played under (what its payment
  lines are explained with).
- a false win (詐胡, `{"false_win": player}`): the same keys, with the
  offender's payments and no scores; the state after is the state before
  (one more hand played).
- a voided hand (作廢) counts for nothing: the same keys, with the state at
  its place in the evening, empty `payments` and `scores`.
- a seat change (替補): `seat`, `player`, `replaces`, `before`, `after`.
- a change of the house rules from the next hand on (`kind` `rules`, the
  body a house-rules document): `house_rules` (checked, canonical), `before`
  (the rules it replaces) and `from_hand`, the number the next hand gets. A
  voided one (a correction of the whole evening replaced it) changes nothing.

`Recorder.resume` continues from a stored state and totals, so appending a
hand never replays the evening; `Recorder.replay` starts again from the
first hand (after a void or a correction).

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
    is_mapping,
    seat_change_from_request,
    value_field,
)
from ledger.errors import InvalidRequest, LedgerError
from ledger.house_rules import check_house_rules, profile_ruleset
from ledger.table import MAX_PARTICIPANTS, WINDS, Table, TableState

FULL_ENTRY_FIELDS = ("hand", "win")
FULL_ENTRY_KEYS = ("player", *FULL_ENTRY_FIELDS)  # all a full-entry winner may have


class Event(NamedTuple):
    """One stored event to replay: its kind, body as entered, void flag and hand number.

    `earlier` is the result stored for this very body, if any: a full entry
    whose table (seats, dealer, winds) is as it was then keeps that score
    instead of being scored again.
    """

    kind: str
    body: Mapping
    void: bool = False
    number: int | None = None
    earlier: Mapping | None = None


def state_from_dict(data: Mapping) -> TableState:
    """The inverse of `TableState.to_dict` (the form stored with sessions and entries).

    Positional, in the order of the fields: a named tuple built with keywords costs
    twice as much, and a replay whose deal moved builds one for each stored full entry.
    """
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
        """A new evening; raises `InvalidRequest` for bad players, stakes, options or house rules.

        `max_participants`: see `Table.start` (a seat change bringing one more is refused).
        """
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
        """Replay every event from the start; returns the recorder and each event's result.

        A hand that is no longer valid (a full entry whose winds or dealer
        changed so that it cannot be scored) raises `InvalidRequest` whose
        message names the hand. `house_rules` are those the evening started
        with; its changes are among the events.
        """
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
        """Apply one event (validated first) and return its stored result (module docstring).

        `earlier` is a result stored for the same body (see `Event`).
        """
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


def hand_entry(body: object, ruleset: str, state: TableState, scorer: scoring.Scorer,
               earlier: Mapping | None = None) -> tuple[HandEntry, list[dict]]:
    """The ledger's `HandEntry` for a hand body, and one score per winner.

    Full-entry winners are scored by `scorer` (the session's rule set and
    options) at the table's winds in `state` (the state before the hand),
    unless `earlier` is the result stored for this body at this same table
    (see `Event`): its scores are kept. Everything else is checked when the
    entry is applied.
    """
    if not is_mapping(body):
        raise InvalidRequest("a hand must be a JSON object", None)
    winners = body.get("winners", [])
    if body.get("draw") is True and winners:
        raise InvalidRequest("a draw (流局) has no winners", "winners")
    if not isinstance(winners, list):
        raise InvalidRequest("winners must be a list", "winners")
    value_key = value_field(ruleset)
    scores, scored = [], {}  # `scored`: the `Winner` of each full-entry winner, by index
    for index, winner in enumerate(winners):
        if not is_mapping(winner):  # refused by `hand_from_request`
            score = {"player": None, value_key: None, "score": None}
        elif winner.keys().isdisjoint(FULL_ENTRY_FIELDS):  # quick entry: the value is the table's
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
    """The engine's breakdown stored for winner `index`, if it holds at this table.

    It does if it was made at this same table, or if the deal moved under it
    (a void or correction earlier in the evening) but nothing the score reads
    of the table came out differently for this winner (`scoring.holds_at`):
    a void near the start of a long evening then re-scores only the few hands
    with a flower or a wind pung that the move changed.
    """
    if not earlier or not earlier.get("before") or index >= len(earlier["scores"]):
        return None
    then, stored = earlier["before"], earlier["scores"][index]
    if same_table(then, state):
        return stored["score"]
    then_state = state_from_dict(then)
    if (stored["score"] is None or stored["player"] != player or player not in then_state.seats
            or not is_mapping(hand)):
        return None
    if scoring.holds_at(stored["score"], hand, win, _seat(then_state, player), _seat(state, player)):
        return stored["score"]
    return None


def _seat(state: TableState, player: str) -> scoring.Seat:
    """What `player`'s score reads of the table in `state`."""
    return scoring.Seat(state.seat_wind(player), state.round_wind, state.hand_wind, player == state.dealer)


def _valued_winner(winner: Mapping, index: int, body: Mapping, ruleset: str, value_key: str, state: TableState,
                   scorer: scoring.Scorer, earlier: Mapping | None) -> tuple[Winner, dict]:
    """A full-entry winner as the ledger's `Winner` (with its value) and its score record.

    It is scored by the engine, or keeps its breakdown stored in `earlier` where that holds (`_stored`).
    The winner's field name (`winners[0]`) is spelt out only for a refusal.
    """
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
    """The engine's breakdown (`Score.to_dict`) of a full entry at the table's winds and dealer.

    The winds and dealer flag are read straight from `state` (what `_seat` gives, without
    building a `scoring.Seat` for each hand of a cold replay).
    """
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
    if not is_mapping(win):
        raise InvalidRequest("win must be an object", f"winners[{index}].win")
    if "hand" not in winner and win.get("event") is None:
        raise InvalidRequest("a full entry needs the winner's hand", f"winners[{index}].hand")
    for key in winner:
        if key not in FULL_ENTRY_KEYS:
            hint = f"give either {value_key} or hand and win, not both" if key == value_key else (
                "a full entry has player, hand and win (the event goes in win.event)")
            raise InvalidRequest(f"{hint}; unexpected {key!r}", f"winners[{index}].{key}")
    return win


def _win_with_by(win: Mapping, by: object, index: int) -> dict:
    """The winner's `win` with the hand's `by` filled in; the two must agree.

    A `win` that already says `by` is passed on as it is when it is a plain dict
    (the engine only reads it), not copied for every hand.
    """
    if "by" not in win:
        return {**win, "by": by} if by in WIN_BY else dict(win)
    if by in WIN_BY and win["by"] != by:
        raise InvalidRequest(f"win.by is {win['by']!r} but the hand says by {by!r}", f"winners[{index}].win.by")
    return win if type(win) is dict else dict(win)


def _subfield(prefix: str, field: str | None) -> str:
    return prefix if not field else f"{prefix}.{field}"
