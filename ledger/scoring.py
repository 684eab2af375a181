"""Score one winning hand under a rule set: best reading -> breakdown.

A rule set (:class:`RuleSet`) is data: its patterns, each a :class:`Pattern` (id, Chinese name, value,
the ids it replaces, one predicate), its options and events. :class:`Scorer` scores every reading of
the hand (R1) and keeps the best. ``ledger.rules`` is built on this module, so it never looks one up.

>>> from ledger.rules import RULESETS
>>> result = Scorer(RULESETS["taiwan"]).score({"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"},
...                                           {"by": "discard"}, seat_wind="S")
>>> result.total, [(p.id, p.value) for p in result.patterns]
(3, [('concealed', 1), ('all_chows', 2)])
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, NamedTuple

from ledger import tiles
from ledger.errors import InvalidHand, InvalidRequest, LedgerError, SwitchedOff
from ledger.hand import Group, Hand, Reading, flower_tiles

WIN_BY = ("discard", "self_draw", "robbing_kong")
FLAGS = ("after_kong", "last_tile", "declared_ready")
_UNSET = (False,) * len(FLAGS)

#: What a predicate may declare it needs of a hand to count at all (:func:`needs`):
#: honour tiles, flowers, or a flag or event of the win (R9); and of the
#: reading: three pungs or kongs or more, three chows or more (a reading of five
#: sets has one or the other).
HONOURS, FLOWERS, FLAGGED, PUNGS, CHOWS = "honours", "flowers", "flagged", "pungs", "chows"


def needs(feature: str):
    """Declare that a predicate is 0 for every hand (or reading) without ``feature``, so the engine skips it:
    a reading then runs a third of the predicates (``tests/ledger/test_scoring_properties.py`` checks it)."""
    def declare(predicate):
        predicate.needs = feature
        return predicate
    return declare


class Win(NamedTuple):
    """How the hand was won; the flags the tiles cannot show (R9)."""

    by: str = "discard"
    after_kong: bool = False
    last_tile: bool = False
    declared_ready: bool = False
    event: str | None = None

    @property
    def self_drawn(self) -> bool:
        return self.by == "self_draw"

    @property
    def flagged(self) -> bool:
        """Any flag or event."""
        return self.after_kong or self.last_tile or self.declared_ready or self.event is not None


_NOTHING: frozenset = frozenset()


class Context:
    """Everything a pattern predicate may look at, for one reading, worked out once so that each predicate is
    a question or two about sets."""

    __slots__ = ("hand", "reading", "win", "self_drawn", "seat_wind", "round_wind", "hand_wind", "dealer", "options",
                 "flowers", "kinds", "suits", "has_honor", "concealed_hand",
                 "sets", "pungs", "chows", "kongs", "concealed_pungs", "pung_tiles",
                 "chow_firsts", "chow_set", "shape")

    def __init__(self, hand: Hand | None, reading: Reading | None, win: Win, winds: Mapping[str, int],
                 dealer: bool, options: Mapping[str, Any], flowers: tuple[int, ...]):
        self.hand, self.reading, self.win = hand, reading, win
        #: 自摸 (``win.self_drawn``, read once here: four predicates of every reading ask it).
        self.self_drawn = win.by == "self_draw"
        self.seat_wind, self.round_wind, self.hand_wind = winds["seat"], winds["round"], winds["hand"]
        self.dealer, self.options, self.flowers = dealer, options, flowers
        if hand is None:
            self.kinds, self.suits = _NOTHING, _NOTHING
            self.has_honor = self.concealed_hand = False
        else:
            self.kinds, self.suits = hand.kinds, hand.suits
            #: 門清 (R3).
            self.has_honor, self.concealed_hand = hand.has_honor, hand.is_concealed
        self.sets: tuple[Group, ...] = reading.sets if reading else ()
        # One pass over the five sets sorts them all out: every reading of
        # every hand makes a Context, and a comprehension per list cost twice as much.
        pungs, chows, kongs, pung_firsts, chow_firsts = [], [], [], [], []
        concealed_pungs = 0
        for group in self.sets:
            if group.kind == "chow":
                chows.append(group)
                chow_firsts.append(group.first)
            else:
                pungs.append(group)
                pung_firsts.append(group.first)
                if group.kind == "kong":
                    kongs.append(group)
                if group.concealed:
                    concealed_pungs += 1
        #: Pungs and kongs (刻子, 槓子), the kongs, and chows (順子).
        self.pungs, self.kongs, self.chows = pungs, kongs, chows
        #: 暗刻 (R2): concealed-part pungs not completed by a discard, and concealed kongs.
        self.concealed_pungs = concealed_pungs
        #: The tile of every pung or kong (a tile makes at most one).
        self.pung_tiles = frozenset(pung_firsts) if pung_firsts else _NOTHING
        #: The first tile of every chow, repeats kept (一盃口); and as a set.
        self.chow_firsts = chow_firsts
        self.chow_set = frozenset(chow_firsts) if chow_firsts else _NOTHING
        #: The reading's features (:data:`PUNGS`, :data:`CHOWS`): three pungs or kongs or more, three chows or more.
        self.shape = (len(pungs) >= 3, len(chows) >= 3)

    @property
    def waits(self) -> tuple[int, ...]:
        """The hand's waits (R4)."""
        return self.hand.waits() if self.hand else ()

    def pung_of(self, tile: int) -> bool:
        return tile in self.pung_tiles


@dataclass(frozen=True)
class Pattern:
    """One scoring pattern: ``count(ctx)`` says how many times it scores (0: not)."""

    id: str
    name: str
    value: int
    count: Callable[[Context], int | bool]
    replaces: tuple[str, ...] = ()
    unit: str = "tai"

    @property
    def needs(self) -> str | None:
        """What a hand must have for this pattern to score (:func:`needs`), if anything."""
        return getattr(self.count, "needs", None)

    def scored(self, times: int | bool) -> ScoredPattern:
        """This pattern as scored ``times`` times in a reading (``True`` is once)."""
        if times is True or times == 1:
            return self._once
        return ScoredPattern(self.id, self.name, self.value * int(times), self.unit)

    @cached_property
    def _once(self) -> ScoredPattern:
        """Scored once: most patterns score once, so each has that value made up front."""
        return ScoredPattern(self.id, self.name, self.value, self.unit)

    def describe(self) -> dict:
        out = {"id": self.id, "name": self.name, "value": self.value, "unit": self.unit}
        if self.replaces:
            out["replaces"] = list(self.replaces)
        return out


@dataclass(frozen=True)
class Option:
    """A rule-set option a table may set per session. ``kind`` is ``bool`` or ``int``."""

    id: str
    default: Any
    kind: type
    description: str
    nullable: bool = False
    minimum: int = 0

    def parse(self, value: Any) -> Any:
        if type(value) is self.kind and (self.kind is bool or value >= self.minimum):
            return value  # the usual value, of the exact type (a bool is never taken for an int)
        if value is None and self.nullable:
            return None
        ok = isinstance(value, self.kind) and (self.kind is bool or not isinstance(value, bool))
        if not ok or (self.kind is int and value < self.minimum):
            wanted = ("true or false" if self.kind is bool
                      else "a positive integer" if self.minimum == 1 else f"an integer ≥ {self.minimum}")
            if self.nullable:
                wanted += " or null"
            raise InvalidRequest(f"options.{self.id}: must be {wanted}, not {value!r}", f"options.{self.id}")
        return value

    def describe(self) -> dict:
        return {"id": self.id, "default": self.default, "type": self.kind.__name__,
                "description": self.description}


class ScoredPattern(NamedTuple):
    """A pattern as scored in one reading: ``value`` is its value × its count."""

    id: str
    name: str
    value: int
    unit: str

    def to_dict(self, with_unit: bool) -> dict:
        out = {"id": self.id, "name": self.name, "value": self.value}
        if with_unit:
            out["unit"] = self.unit
        return out


class Score(NamedTuple):
    """The breakdown of one win: ``total`` is the sum of ``patterns[].value``; ``extra`` the rule set's own
    fields (``shanghai``: flowers, lei, fan, points)."""

    ruleset: str
    unit: str
    patterns: tuple[ScoredPattern, ...]
    reading: Reading | None
    hand: Hand | None
    extra: Mapping[str, Any]

    @property
    def waits(self) -> tuple[int, ...]:
        """The waits of the hand before the win (R4)."""
        return self.hand.waits() if self.hand else ()

    @property
    def total(self) -> int:
        return sum(p.value for p in self.patterns)

    def to_dict(self) -> dict:
        """The breakdown as JSON, every list and dict new; spelt out field by field (a cold replay stores many)."""
        if self.unit == "tai":
            patterns = [{"id": id_, "name": name, "value": value} for id_, name, value, _ in self.patterns]
        else:
            patterns = [{"id": id_, "name": name, "value": value, "unit": unit}
                        for id_, name, value, unit in self.patterns]
        total = 0
        for pattern in self.patterns:
            total += pattern.value
        reading, hand = self.reading, self.hand
        out = {"ruleset": self.ruleset, "unit": self.unit, "total": total, "patterns": patterns,
               "sets": [[*codes] for codes in map(_codes_of, reading.sets)] if reading else [],
               "pair": [*_codes_of(reading.pair)] if reading else [],
               "waits": tiles.codes(hand.waits()) if hand else []}
        if reading:
            out["wait"] = reading.wait
        if self.extra:
            out.update(self.extra)
        return out


@cache
def _codes_of(group: Group) -> tuple[str, ...]:
    """A set's or the pair's tiles as codes (a few hundred groups exist: each is worked out once)."""
    return tuple(tiles.codes(group.tiles))


@dataclass(frozen=True)
class RuleSet:
    """A rule set as data, plus the few hooks where rule sets really differ.

    ``alone``: events scored by themselves (八仙過海 …); ``select(options)``: the patterns in force;
    ``shapeless(ctx)``: a hand with no reading that still wins (亂風向); ``finish``: the final patterns,
    extra fields and a rank; ``check``: refusals of the best reading (Shanghai's qualifying hand)."""

    id: str
    name: str
    unit: str
    hand_size: int
    patterns: tuple[Pattern, ...]
    options: tuple[Option, ...]
    events: tuple[str, ...]
    alone: tuple[str, ...] = ()
    dealer_only: tuple[str, ...] = ("heavenly_win",)
    non_dealer_only: tuple[str, ...] = ("earthly_win",)
    #: Pattern ids a table's house rules switched off (``ledger.house_rules``): an event among them is refused
    #: as switched off, not as unknown.
    switched_off: tuple[str, ...] = ()
    select: Callable[[Mapping[str, Any]], tuple[Pattern, ...]] | None = None
    shapeless: Callable[[Context], bool] | None = None
    finish: Callable[[list[ScoredPattern], Context], tuple[list[ScoredPattern], dict, tuple]] | None = None
    check: Callable[["Score", Context], None] | None = None

    def pattern(self, pattern_id: str) -> Pattern:
        return next(p for p in self.patterns if p.id == pattern_id)

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in; an unknown option or a wrong type is an :class:`InvalidRequest`."""
        if not raw:
            return dict(self._defaults)
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raise InvalidRequest("options must be an object", "options")
        for key in raw:
            if key not in self._defaults:
                raise InvalidRequest(f"options.{key}: unknown option for {self.id} "
                                     f"(known: {', '.join(self._defaults)})", f"options.{key}")
        return {o.id: o.parse(raw[o.id]) if o.id in raw else o.default for o in self.options}

    @cached_property
    def check_cache(self) -> dict:
        """The ``(predicate, pattern)`` pairs of this rule set, kept on it: a house-rules profile is a rule set of
        its own, and its pairs go when it does."""
        return {}

    @cached_property
    def _defaults(self) -> dict[str, Any]:
        """Every option at its default, by id (copied before it is handed out)."""
        return {o.id: o.default for o in self.options}

    def active_patterns(self, options: Mapping[str, Any]) -> tuple[Pattern, ...]:
        return self.select(options) if self.select else self.patterns

    def checks(self, options: Mapping[str, Any], absent: frozenset[str] = frozenset()
               ) -> tuple[tuple[Callable[[Context], Any], Pattern], ...]:
        """``(predicate, pattern)`` for the patterns in force that a hand lacking ``absent`` can score."""
        return _checks(self.active_patterns(options), absent, self.check_cache)

    def describe(self) -> dict:
        return {"id": self.id, "name": self.name, "unit": self.unit, "hand_size": self.hand_size,
                "patterns": [p.describe() for p in self.patterns],
                "options": [o.describe() for o in self.options], "events": list(self.events)}


def parse_win(raw: Mapping[str, Any] | None, ruleset: RuleSet) -> Win:
    raw = raw or {}
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise InvalidRequest("win: expected an object", "win")
    by = raw.get("by", "discard")
    if by not in WIN_BY:
        raise InvalidRequest(f"win.by: must be one of {', '.join(WIN_BY)}, not {by!r}", "win.by")
    event = raw.get("event")
    if event is not None and event not in ruleset.events:
        if event in ruleset.switched_off:
            raise SwitchedOff(ruleset.id, event, "win.event")
        raise InvalidRequest(f"win.event: {event!r} is not an event of {ruleset.id} "
                             f"(known: {', '.join(ruleset.events)})", "win.event")
    flags = tuple(map(raw.get, FLAGS, _UNSET))  # each flag, False when absent
    if type(flags[0]) is not bool or type(flags[1]) is not bool or type(flags[2]) is not bool:
        flag = next(flag for flag, value in zip(FLAGS, flags) if type(value) is not bool)
        raise InvalidRequest(f"win.{flag}: must be true or false", f"win.{flag}")
    return Win(by, *flags, event)


_WIND_TILES = {letter: tiles.wind_tile(letter) for letter in tiles.WIND_LETTERS}


def parse_wind(value: Any, field_name: str) -> int:
    if not isinstance(value, str) or value not in _WIND_TILES:
        raise InvalidRequest(f"{field_name}: must be E, S, W or N, not {value!r}", field_name)
    return _WIND_TILES[value]


#: The parsed winds (``Context`` reads them) of every seat, round and 局 wind, by their letters.
_WINDS = {(seat, round_, hand_): {"seat": _WIND_TILES[seat], "round": _WIND_TILES[round_], "hand": _WIND_TILES[hand_]}
          for seat in _WIND_TILES for round_ in _WIND_TILES for hand_ in _WIND_TILES}


class Scorer:
    """The rule set it is given, under one set of options checked once per replay rather than once per hand."""

    def __init__(self, ruleset: RuleSet, options: Mapping[str, Any] | None = None):
        self.ruleset = ruleset
        self.options = self.ruleset.parse_options(options)
        self.patterns = self.ruleset.active_patterns(self.options)
        #: The ``(predicate, pattern)`` pairs a reading asks, by its features (:data:`_FEATURES`), made on first use.
        self._checks: dict[tuple[bool, ...], tuple] = {}

    def score(self, hand: Mapping[str, Any] | None, win: Mapping[str, Any] | None = None, *,
              seat_wind: str = "E", round_wind: str = "E", hand_wind: str = "E",
              dealer: bool | None = None) -> Score:
        """Validate and score one hand; raises :class:`~ledger.errors.LedgerError` with the reason."""
        ruleset, parsed_options = self.ruleset, self.options
        parsed_win = parse_win(win, ruleset)
        winds = (_WINDS.get((seat_wind, round_wind, hand_wind))
                 if type(seat_wind) is str and type(round_wind) is str and type(hand_wind) is str else None)
        if winds is None:  # not three plain wind letters: parse_wind says which is wrong
            winds = {"seat": parse_wind(seat_wind, "seat_wind"), "round": parse_wind(round_wind, "round_wind"),
                     "hand": parse_wind(hand_wind, "hand_wind")}
        is_dealer = seat_wind == "E" if dealer is None else dealer
        if not isinstance(is_dealer, bool):
            raise InvalidRequest("dealer: must be true or false", "dealer")
        _check_flags(parsed_win, is_dealer)
        if type(hand) is not dict and not isinstance(hand or {}, Mapping):
            raise InvalidHand("hand: expected an object", "hand")
        hand = hand or {}
        if parsed_win.event in ruleset.alone:
            return _score_alone(ruleset, hand, parsed_win, winds, is_dealer, parsed_options)
        if not hand.get("winning_tile") and hand.get("winning_tile") != []:
            raise InvalidHand("hand.winning_tile: required (the tile that completed the hand)",
                              "hand.winning_tile")
        built = Hand.build(hand.get("concealed"), hand.get("melds"), hand.get("winning_tile"),
                           hand.get("flowers"), size=ruleset.hand_size)
        contexts = [Context(built, r, parsed_win, winds, is_dealer, parsed_options, built.flowers)
                    for r in built.readings(parsed_win.by)]
        if not contexts:
            shapeless = Context(built, None, parsed_win, winds, is_dealer, parsed_options, built.flowers)
            if not (ruleset.shapeless and ruleset.shapeless(shapeless)):
                raise InvalidHand(f"hand: no legal shape: {tiles.to_compact(built.concealed)} + "
                                  f"{tiles.code(built.winning_tile)} do not split into "
                                  f"{len(built.concealed) // 3} sets and a pair", "hand")
            contexts = [shapeless]
        present = (built.has_honor, bool(built.flowers), parsed_win.flagged)
        scored = []
        for ctx in contexts:
            features = present + ctx.shape
            checks = self._checks.get(features)
            if checks is None:
                checks = self._checks[features] = _checks(self.patterns, _ABSENT[features], ruleset.check_cache)
            scored.append(_score_reading(ruleset, checks, ctx))
        found = scored[0] if len(scored) == 1 else max(scored, key=lambda reading: reading.rank)
        best = found.score()
        if ruleset.check:
            ruleset.check(best, found.ctx)
        return best


class Seat(NamedTuple):
    """What a winner's score reads of the table: the seat, round and 局 winds, and dealer or not."""

    seat_wind: str = "E"
    round_wind: str = "E"
    hand_wind: str = "E"
    dealer: bool = True


def holds_at(breakdown: Mapping[str, Any], hand: Mapping[str, Any], win: Mapping[str, Any],
             scored_at: Seat, now: Seat) -> bool:
    """Whether ``breakdown`` (of ``hand`` won by ``win`` at ``scored_at``) is the score at ``now`` too: a score
    reads the table only in 花牌, wind pungs and R9's dealer checks. ``False`` means "score it again"."""
    if scored_at == now:
        return True
    if scored_at.dealer != now.dealer and win.get("event") is not None:
        return False
    wind_pungs = {group[0] for group in breakdown.get("sets", ())
                  if group[0] in _WIND_OF_CODE and group[0] == group[1]}
    try:
        flowers = flower_tiles(hand.get("flowers"))
    except LedgerError:
        return False
    return _table_facts(scored_at, wind_pungs, flowers) == _table_facts(now, wind_pungs, flowers)


def _table_facts(at: Seat, wind_pungs: set[str], flowers: tuple[int, ...]) -> tuple:
    """What the table-reading patterns see: seat flowers, and a pung of the seat, round and 局 wind or not."""
    seat = _WIND_TILES.get(at.seat_wind)
    return (sum(tiles.flower_wind(flower) == seat for flower in flowers),
            *(_WIND_CODES.get(wind) in wind_pungs for wind in at[:3]))


_WIND_CODES = {letter: tiles.code(tile) for letter, tile in _WIND_TILES.items()}
_WIND_OF_CODE = {code: letter for letter, code in _WIND_CODES.items()}


def _check_flags(win: Win, dealer: bool) -> None:
    """R9: refuse the flag combinations that cannot happen."""
    event = win.event
    if event in ("heavenly_win", "heavenly_ready") and not dealer:
        raise InvalidHand(f"win.event: {event} (天胡/天聽) is for the dealer only", "win.event")
    if event == "earthly_win" and dealer:
        raise InvalidHand("win.event: earthly_win (地胡) is for a non-dealer only", "win.event")
    if event == "heavenly_win" and not win.self_drawn:
        raise InvalidHand("win.event: heavenly_win (天胡) is won on the dealer's own first draw, "
                          f"not by {win.by}", "win.event")
    if win.after_kong and not win.self_drawn:
        raise InvalidHand(f"win.after_kong: a win on a replacement tile is a self-draw (R5), not {win.by}",
                          "win.after_kong")


def _score_alone(ruleset, hand, win, winds, dealer, options) -> Score:
    flowers = flower_tiles(hand.get("flowers"))
    needed = {"eight_flowers": 8, "seven_flowers_rob": 7}[win.event]
    if len(flowers) != needed:
        raise InvalidHand(f"hand.flowers: {win.event} needs {needed} flowers, got {len(flowers)}",
                          "hand.flowers")
    ctx = Context(None, None, win, winds, dealer, options, flowers)
    pattern = ruleset.pattern(win.event)
    return _finish(ruleset, ctx, [pattern.scored(1)]).score()


class _Scored(NamedTuple):
    """One reading's kept patterns and rank, before it is made a :class:`Score`."""

    ruleset: RuleSet
    ctx: Context
    kept: list[ScoredPattern]
    extra: dict
    order: tuple | None  # the rule set's rank (``finish``); None: by total

    @property
    def rank(self) -> tuple:
        """What the best reading has most of (R1): the total, unless the rule set ranks otherwise."""
        return self.order if self.order is not None else (sum(p.value for p in self.kept),)

    def score(self) -> Score:
        ctx = self.ctx
        return Score(self.ruleset.id, self.ruleset.unit, tuple(self.kept), ctx.reading, ctx.hand, self.extra)


def _score_reading(ruleset: RuleSet, checks, ctx: Context) -> _Scored:
    """Every pattern that counts in this reading, less those another replaces (R8), gathered in one loop."""
    scored: list[ScoredPattern] = []
    replaced: tuple[str, ...] = ()
    for count, pattern in checks:
        times = count(ctx)
        if times:
            scored.append(pattern.scored(times))
            if pattern.replaces:
                replaced += pattern.replaces
    if replaced:
        scored = [p for p in scored if p.id not in replaced]
    return _finish(ruleset, ctx, scored)


def _checks(patterns: tuple[Pattern, ...], absent: frozenset[str], cache: dict
            ) -> tuple[tuple[Callable[[Context], Any], Pattern], ...]:
    """The ``(predicate, pattern)`` pairs of a rule set's pattern tuple, made once per tuple and ``absent``."""
    made = cache.get((id(patterns), absent))
    if made is None or made[0] is not patterns:
        made = cache[id(patterns), absent] = (
            patterns, tuple((p.count, p) for p in patterns if p.needs not in absent))
    return made[1]


#: The features a reading lacks, by whether it has each of them (in this order): one shared frozenset each.
_FEATURES = (HONOURS, FLOWERS, FLAGGED, PUNGS, CHOWS)
_ABSENT = {present: frozenset(feature for feature, has in zip(_FEATURES, present) if not has)
           for present in itertools.product((False, True), repeat=len(_FEATURES))}


def _finish(ruleset: RuleSet, ctx: Context, kept: list[ScoredPattern]) -> _Scored:
    if ruleset.finish:
        kept, extra, rank = ruleset.finish(kept, ctx)
        return _Scored(ruleset, ctx, kept, extra, rank)
    return _Scored(ruleset, ctx, kept, {}, None)
