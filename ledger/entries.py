"""Hand entries (牌局記錄): what a table reports after each hand, and their checks.

The ledger never sees tiles here: a winner brings the value the table agreed on (quick entry) or the
engine computed (full entry), 台 before the dealer extra and ``max_tai``, or shanghai's points of one
share before 荒番. A 詐胡 (`false_win`) has no winners and the table does not move on. Seat and house
rules changes take effect from the next hand. A body comes loaded by its request's schema (a route's, or a
backup's for each entry: `api.sessions.schemas`), so its shape holds; the checks here are what only the
table knows, raising `InvalidRequest` whose `field` names the part (`"winners[1].player"`).

>>> hand_from_request({"winners": [{"player": "Amy", "tai": 3}],
...                    "by": "discard", "discarder": "Cat"}, "taiwan")
HandEntry(winners=(Winner(player='Amy', value=3, event=None),), by='discard', \
discarder='Cat', draw=None, dice=None, three_mouth=(), discarder_ready=False, false_win=None)
>>> hand_from_request({"draw": True, "reason": "four_winds"}, "taiwan").draw
'four_winds'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ledger.errors import InvalidRequest, SwitchedOff
from ledger.rules import RULESETS as _RULESETS
from ledger.scoring import WIN_BY

RULESETS = tuple(_RULESETS)
HAND = "hand"  # the kind of an evening's entry that is a finished hand (一局)
SEAT = "seat"  # and of one that is a seat change (替補)
RULES = "rules"  # and of one that changes the house rules from the next hand on (家規)
DRAW_REASONS = ("exhausted", "four_winds", "four_kongs")
#: The events that change who pays (八仙過海 / 八花, 七搶一): a rule set's events scored alone.
EVENTS = {ruleset.id: ruleset.alone for ruleset in _RULESETS.values()}
MAX_VALUE = 1000  # no real hand comes near; keeps amounts far inside a 64-bit column


class Winner(NamedTuple):
    """One winner (胡牌者) and what one payment is worth before table rules; a named tuple (as `HandEntry` and
    `SeatChange`): half a frozen dataclass's cost, and a replay builds them every hand."""

    player: str
    value: int
    event: str | None = None


class HandEntry(NamedTuple):
    """One finished hand (一局) as the ledger needs it for money and state."""

    winners: tuple[Winner, ...] = ()
    by: str | None = None
    discarder: str | None = None
    draw: str | None = None
    dice: tuple[int, int] | None = None
    three_mouth: tuple[tuple[str, str], ...] = ()
    discarder_ready: bool = False
    false_win: str | None = None


class SeatChange(NamedTuple):
    """A substitute (替補) or a return: `player` sits in `seat` from the next hand."""

    seat: int
    player: str


class HouseRulesChange(NamedTuple):
    """New house rules (a document, checked when applied: `ledger.house_rules`) from the next hand on."""

    rules: Mapping


def house_rules_change_from_request(body: Mapping) -> HouseRulesChange:
    """Build a `HouseRulesChange` from a house-rules document (its keys are checked when it is applied)."""
    return HouseRulesChange(body)


def value_field(ruleset: str) -> str:
    """The request's name for a winner's value: `points` in shanghai, else `tai`."""
    return "points" if ruleset == "shanghai" else "tai"


def is_int(value: object) -> bool:
    """True for a real integer (bool is not one, neither is 3.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_mapping(value: object) -> bool:
    """True for a JSON object: the exact type `dict` asked first, as the `Mapping` ABC costs several times more."""
    return type(value) is dict or isinstance(value, Mapping)


def seated_names(seats: Sequence[str]) -> str:
    """`"Amy, Ben, Cat, Dan"`: used in every "not seated" message."""
    return ", ".join(seats)


# -- request bodies -> entries ------------------------------------------------


def hand_from_request(body: Mapping, ruleset: str, winners: tuple[Winner, ...] | None = None) -> HandEntry:
    """A `HandEntry` from a hand body its schema loaded (API.md, Hands); `winners`, when given, are the
    full-entry winners the recorder has already checked and scored."""
    # Positional, in the order of the fields (named at the right): a named tuple built
    # with keywords costs twice as much, and a replay builds one for every hand.
    dice = body.get("dice")
    three_mouth = body.get("three_mouth")
    return HandEntry(
        _winners_from(body.get("winners", ()), ruleset) if winners is None else winners,  # winners
        body.get("by"),  # by
        body.get("discarder"),  # discarder
        _draw_from(body),  # draw
        None if dice is None else tuple(dice),  # dice
        tuple([tuple(pair) for pair in three_mouth]) if three_mouth else (),  # three_mouth
        body.get("discarder_ready", False),  # discarder_ready
        body.get("false_win"),  # false_win
    )


def seat_change_from_request(body: Mapping) -> SeatChange:
    """Build a `SeatChange` from `{"seat": n, "player": name}`, as its schema loaded it."""
    return SeatChange(body["seat"], body["player"])


def _winners_from(items: Sequence[Mapping], ruleset: str) -> tuple[Winner, ...]:
    """The quick-entry winners; which value a winner brings (`tai` or `points`) is the rule set's."""
    value_key = value_field(ruleset)
    return tuple([_win_from(item, ruleset, value_key, i) for i, item in enumerate(items)])


def _win_from(item: Mapping, ruleset: str, value_key: str, index: int) -> Winner:
    """Winner `index` of a body; its field name (`winners[0]`) is spelt out only for an error."""
    if value_key not in item or len(item) > 2 + ("event" in item):  # `player` is there (the schema's)
        for key in item:
            if key not in ("player", value_key, "event"):
                raise InvalidRequest(f"unknown field {key!r} for a {ruleset} winner", f"winners[{index}].{key}")
        raise InvalidRequest(f"a winner needs {value_key!r}", f"winners[{index}].{value_key}")
    return Winner(item["player"], item[value_key], item.get("event"))


def _draw_from(body: Mapping) -> str | None:
    if not body.get("draw", False):
        if "reason" in body:
            raise InvalidRequest("reason is only for a draw", "reason")
        return None
    return body.get("reason", "exhausted")


# -- checks against the table as it is now -----------------------------------


def check_hand(entry: HandEntry, ruleset: str, seats: Sequence[str], options: Mapping,
               events: tuple[str, ...] | None = None) -> None:
    """Raise `InvalidRequest` unless `entry` is a possible hand at this table now; `events` are the events
    scored alone that a winner may bring (house rules may switch some)."""
    if entry.false_win is not None:
        _check_false_win(entry, seats)
        return
    _check_shanghai_extras(entry, ruleset, seats)
    if entry.draw is not None:
        _check_draw(entry)
        return
    if not entry.winners:
        raise InvalidRequest("a hand needs winners, or draw: true", "winners")
    winners = _check_winners(entry, ruleset, seats, options, EVENTS[ruleset] if events is None else events)
    _check_by(entry, seats, winners)


def _check_draw(entry: HandEntry) -> None:
    if entry.draw not in DRAW_REASONS:
        raise InvalidRequest(
            f"unknown draw reason {entry.draw!r}; use one of {', '.join(DRAW_REASONS)}", "reason"
        )
    extras = (
        ("winners", entry.winners),
        ("by", entry.by),
        ("discarder", entry.discarder),
        ("three_mouth", entry.three_mouth),
        ("discarder_ready", entry.discarder_ready),
    )
    for field, value in extras:
        if value:
            raise InvalidRequest(f"a draw (流局) has no {field}", field)


def _check_false_win(entry: HandEntry, seats: Sequence[str]) -> None:
    """詐胡: one seated offender, and nothing else (the table does not move on, RULES.md §8)."""
    check_seated(entry.false_win, seats, "false_win")
    extras = (("winners", entry.winners), ("by", entry.by), ("discarder", entry.discarder),
              ("draw", entry.draw), ("dice", entry.dice), ("three_mouth", entry.three_mouth),
              ("discarder_ready", entry.discarder_ready))
    for field, value in extras:
        if value:
            raise InvalidRequest(f"a false win (詐胡) names only the offender: no {field}", field)


def _check_winners(entry: HandEntry, ruleset: str, seats: Sequence[str], options: Mapping,
                   events: tuple[str, ...]) -> set[str]:
    """Check each winner and how many there are; returns the winners' names."""
    seen: set[str] = set()
    value_key = value_field(ruleset)
    for i, win in enumerate(entry.winners):
        field = f"winners[{i}]"
        check_seated(win.player, seats, field + ".player")
        if win.player in seen:
            raise InvalidRequest(f"{win.player} is listed twice as a winner", f"{field}.player")
        seen.add(win.player)
        _check_value(win.value, ruleset, field, value_key)
        if win.event is not None:
            _check_event(win, entry, ruleset, events, f"{field}.event")
    _check_winner_count(entry, ruleset, options)
    return seen


def _check_value(value: object, ruleset: str, winner: str, name: str) -> None:
    """Check the value `name` (`tai` or `points`) of the winner whose field is `winner`."""
    if value < 0:
        raise InvalidRequest(f"{name} cannot be negative ({value})", f"{winner}.{name}")
    if value > MAX_VALUE:
        raise InvalidRequest(f"{name} must be at most {MAX_VALUE}, not {value}", f"{winner}.{name}")
    if ruleset == "shanghai" and value == 0:
        raise InvalidRequest("a shanghai win is worth at least 1 point (垃圾胡 is no win)", f"{winner}.{name}")


def _check_event(win: Winner, entry: HandEntry, ruleset: str, allowed: tuple[str, ...], field: str) -> None:
    if win.event not in allowed:
        if win.event in EVENTS[ruleset]:  # the rule set's own: only house rules take it away (`off`)
            raise SwitchedOff(ruleset, win.event, field)
        known = ", ".join(allowed) if allowed else "none"
        raise InvalidRequest(f"unknown event {win.event!r} in {ruleset}; known: {known}", field)
    if len(entry.winners) > 1:
        raise InvalidRequest(f"a {win.event} win has a single winner", "winners")


def _check_winner_count(entry: HandEntry, ruleset: str, options: Mapping) -> None:
    if len(entry.winners) < 2:
        return
    if entry.by == "self_draw":
        raise InvalidRequest("a self-draw has one winner; several only on a discard", "winners")
    if ruleset != "shanghai" and not options.get("multiple_winners", False):
        raise InvalidRequest(
            "several winners on one discard (一炮多響) need the option multiple_winners", "winners"
        )


def _check_by(entry: HandEntry, seats: Sequence[str], winners: set[str]) -> None:
    """Check `by` and the discarder; `winners` are the winners' names."""
    if entry.by not in WIN_BY:
        raise InvalidRequest(f"by must be one of {', '.join(WIN_BY)}, not {entry.by!r}", "by")
    if entry.by == "self_draw" and not _robs(entry):
        if entry.discarder is not None:
            raise InvalidRequest("a self-draw (自摸) has no discarder", "discarder")
        return
    if entry.discarder is None:
        raise InvalidRequest(_missing_discarder(entry), "discarder")
    check_seated(entry.discarder, seats, "discarder")
    if entry.discarder in winners:
        raise InvalidRequest(f"{entry.discarder} cannot both win and be the discarder", "discarder")


def _robs(entry: HandEntry) -> bool:
    """A 七搶一 win: whoever holds the eighth flower pays, even on a self-draw (a plain loop: asked every self-draw)."""
    for win in entry.winners:
        if win.event == "seven_flowers_rob":
            return True
    return False


def _missing_discarder(entry: HandEntry) -> str:
    if _robs(entry):
        return "seven_flowers_rob (七搶一) needs the holder of the eighth flower as discarder"
    if entry.by == "robbing_kong":
        return "a robbed kong (搶槓) needs the robbed player as discarder"
    return "a discard (放槍) needs the discarder"


def _check_shanghai_extras(entry: HandEntry, ruleset: str, seats: Sequence[str]) -> None:
    if ruleset != "shanghai":
        if entry.dice is None and not entry.three_mouth and entry.discarder_ready is False:
            return  # the usual case: none of them
        extras = (
            ("dice", entry.dice is not None),
            ("three_mouth", bool(entry.three_mouth)),
            ("discarder_ready", entry.discarder_ready is not False),
        )
        for field, present in extras:
            if present:
                raise InvalidRequest(f"{field} is for shanghai tables only", field)
        return
    _check_dice(entry.dice)
    _check_three_mouth(entry.three_mouth, seats)
    if entry.discarder_ready and entry.by != "discard":
        raise InvalidRequest("discarder_ready only applies to a discard", "discarder_ready")


def _check_dice(dice: tuple[int, int] | None) -> None:
    if dice is None:
        return
    for die in dice:
        if not 1 <= die <= 6:
            raise InvalidRequest(f"each die shows 1 to 6, not {die!r}", "dice")


def _check_three_mouth(pairs: tuple[tuple[str, str], ...], seats: Sequence[str]) -> None:
    seen: set[frozenset] = set()
    for i, pair in enumerate(pairs):
        field = f"three_mouth[{i}]"
        for name in pair:
            check_seated(name, seats, field)
        if pair[0] == pair[1]:
            raise InvalidRequest(f"a three_mouth (三口) pair needs two players, not {pair[0]} twice", field)
        if frozenset(pair) in seen:
            raise InvalidRequest(f"the three_mouth pair {pair[0]}–{pair[1]} is listed twice", field)
        seen.add(frozenset(pair))


def check_seated(name: object, seats: Sequence[str], field: str) -> None:
    """Raise unless `name` is one of the players seated now (the message lists them)."""
    if name not in seats:
        raise InvalidRequest(
            f"{name!r} is not seated at this table now; seated: {seated_names(seats)}", field
        )


def check_seat_change(change: SeatChange, seats: Sequence[str]) -> None:
    """Raise unless `change` puts a player who is not seated into seat 0–3."""
    if not 0 <= change.seat <= 3:
        raise InvalidRequest(f"seat must be 0, 1, 2 or 3, not {change.seat!r}", "seat")
    if change.player in seats:
        where = seats.index(change.player)
        raise InvalidRequest(f"{change.player} already sits in seat {where}", "player")


def check_name(name: object, field: str) -> None:
    """Raise unless `name` is a non-blank string."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidRequest(f"a player name must be a non-empty text, not {name!r}", field)
