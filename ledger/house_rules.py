"""House rules (家規, RULES.md §8): a table's variant of a rule set, as one JSON document.

``values`` set pattern values; ``off`` patterns never count, so what they would have replaced counts
again (清碰 off: 清一色 and 碰碰胡 both score), and an event switched off cannot be recorded; ``on``
adds patterns of the sibling rule set (or 半求), keeping R8; plus the dealer extra, ``lei_cap`` and the
詐胡 penalty. :func:`check_house_rules` is the one place a document is validated (the field names the
key); an evening stores the checked document in full, so it keeps the rules it was played under
whoever edits a group's profile later.

>>> rules = check_house_rules("taiwan", {"values": {"big_four_winds": 16}, "off": ["all_simples"],
...                                      "on": ["single_wait"], "dealer_extra": "1+n"})
>>> rules["on"], [p.value for p in profile_ruleset("taiwan", rules).patterns if p.id == "big_four_winds"]
(['single_wait'], [16])
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any

from ledger.entries import is_int, is_mapping
from ledger.errors import InvalidRequest
from ledger.payments import DEALER_EXTRAS, MAX_STAKE, false_win_penalty
from ledger.presets import presets_for
from ledger.rules import RULESETS, get_ruleset, shanghai, taiwan
from ledger.scoring import Pattern, RuleSet, Scorer

MAX_PATTERN_VALUE = 1000
KEYS = ("values", "off", "on", "dealer_extra", "max_dealer_extra", "lei_cap", "false_win")
TAIWANESE_ONLY = ("dealer_extra", "max_dealer_extra")
SHANGHAI_ONLY = ("lei_cap",)
#: Taiwanese rule sets and the sibling whose patterns their house rules may switch on.
SIBLINGS = {"taiwan": "taiwan_zz", "taiwan_zz": "taiwan"}
#: Patterns the engine knows outside every seed, switched on by house rules only.
EXTRA_PATTERNS = {"taiwan": (taiwan.HALF_MELDED,), "taiwan_zz": (taiwan.HALF_MELDED,)}
#: Shown when nothing else scores (taiwan_zz): not a pattern a table can change.
FIXED = ("no_points",)


@cache
def switchable(ruleset_id: str) -> tuple[Pattern, ...]:
    """The patterns ``on`` may name for this rule set: its sibling's that it lacks, then the extras."""
    own = {p.id for p in get_ruleset(ruleset_id).patterns}
    sibling = RULESETS[SIBLINGS[ruleset_id]].patterns if ruleset_id in SIBLINGS else ()
    return tuple(p for p in sibling if p.id not in own and p.id not in FIXED) + EXTRA_PATTERNS.get(ruleset_id, ())


def scorable(ruleset_id: str) -> tuple[Pattern, ...]:
    """Every pattern a session of this rule set may score: its own, and those house rules may switch on."""
    return get_ruleset(ruleset_id).patterns + switchable(ruleset_id)


def known_patterns(ruleset_id: str) -> dict[str, Pattern]:
    """Every pattern a profile of this rule set may name, by id, with its base value."""
    return {p.id: p for p in scorable(ruleset_id) if p.id not in FIXED}


@cache
def changeable(ruleset_id: str) -> tuple[str, ...]:
    """The pattern ids of the rule set itself that ``values`` and ``off`` may name."""
    return tuple(p.id for p in get_ruleset(ruleset_id).patterns if p.id not in FIXED)


def check_house_rules(ruleset_id: str, raw: object, options: Mapping[str, Any] | None = None) -> dict:
    """The house rules ``raw`` checked for ``ruleset_id``, canonical (``{}`` for none); a ``dealer_extra``
    other than ``none`` contradicts the options' ``dealer_bonus: false``."""
    get_ruleset(ruleset_id)
    if raw is None:
        return {}
    if not is_mapping(raw):
        raise InvalidRequest("house_rules must be an object", "house_rules")
    for key in raw:
        if key not in KEYS:
            raise InvalidRequest(f"house_rules.{key}: unknown key (known: {', '.join(KEYS)})", f"house_rules.{key}")
        only = "taiwan and taiwan_zz" if key in TAIWANESE_ONLY else "shanghai" if key in SHANGHAI_ONLY else None
        if only and (ruleset_id == "shanghai") != (key in SHANGHAI_ONLY):
            raise InvalidRequest(f"house_rules.{key}: for {only} only, not {ruleset_id}", f"house_rules.{key}")
    checked: dict[str, Any] = {}
    on = _pattern_list(raw, "on", {p.id for p in switchable(ruleset_id)}, ruleset_id)
    if on:
        checked["on"] = on
    known = set(changeable(ruleset_id)) | set(on)
    off = _pattern_list(raw, "off", known, ruleset_id)
    for index, pattern_id in enumerate(raw.get("off") or ()):
        if pattern_id in on:
            raise InvalidRequest(f"house_rules.off[{index}]: {pattern_id} is switched on and off at once",
                                 f"house_rules.off[{index}]")
    if off:
        checked["off"] = off
    values = _values(raw.get("values"), known, ruleset_id)
    if values:
        checked["values"] = values
    if raw.get("dealer_extra") is not None:
        checked["dealer_extra"] = _dealer_extra(raw["dealer_extra"], options or {})
    for key, low, high in (("max_dealer_extra", 0, MAX_PATTERN_VALUE), ("lei_cap", 1, MAX_PATTERN_VALUE)):
        if raw.get(key) is not None:
            checked[key] = _whole(raw[key], low, high, f"house_rules.{key}")
    if raw.get("false_win") is not None:
        checked["false_win"] = _false_win(raw["false_win"])
    return checked


def _pattern_list(raw: Mapping, key: str, known: set[str], ruleset_id: str) -> list[str]:
    """``on`` or ``off``: a list of known pattern ids, sorted, each once."""
    items = raw.get(key)
    if items is None:
        return []
    if not isinstance(items, list):
        raise InvalidRequest(f"house_rules.{key} must be a list of pattern ids", f"house_rules.{key}")
    for index, pattern_id in enumerate(items):
        if not isinstance(pattern_id, str) or pattern_id not in known:
            raise InvalidRequest(f"house_rules.{key}[{index}]: {_why_not(pattern_id, key, ruleset_id)}",
                                 f"house_rules.{key}[{index}]")
    return sorted(set(items))


def _why_not(pattern_id: object, key: str, ruleset_id: str) -> str:
    """Why ``pattern_id`` may not be listed in ``key`` (``on``, ``off`` or ``values``)."""
    if pattern_id in FIXED:
        return f"{pattern_id} is shown when nothing else scores; a table cannot change it"
    own = changeable(ruleset_id)
    others = {p.id for p in switchable(ruleset_id)}
    if key == "on" and pattern_id in own:
        return f"{pattern_id} is a pattern of {ruleset_id} already (on is for the other rule set's patterns)"
    if key != "on" and pattern_id in others:
        return f"{pattern_id} is not a pattern of {ruleset_id}; switch it on first (house_rules.on)"
    allowed = sorted(others) if key == "on" else own
    return f"unknown pattern {pattern_id!r} for {ruleset_id} (allowed: {', '.join(allowed) or 'none'})"


def _values(raw: object, known: set[str], ruleset_id: str) -> dict[str, int]:
    if raw is None:
        return {}
    if not is_mapping(raw):
        raise InvalidRequest("house_rules.values must be an object: pattern id -> value", "house_rules.values")
    values = {}
    for pattern_id in sorted(raw):
        field = f"house_rules.values.{pattern_id}"
        if pattern_id not in known:
            raise InvalidRequest(f"{field}: {_why_not(pattern_id, 'values', ruleset_id)}", field)
        values[pattern_id] = _whole(raw[pattern_id], 0, MAX_PATTERN_VALUE, field)
    return values


def _whole(value: object, low: int, high: int, field: str) -> int:
    if not is_int(value) or not low <= value <= high:
        raise InvalidRequest(f"{field}: must be a whole number from {low} to {high}, not {value!r}", field)
    return value


def _dealer_extra(value: object, options: Mapping[str, Any]) -> str:
    field = "house_rules.dealer_extra"
    if value not in DEALER_EXTRAS:
        raise InvalidRequest(f"{field}: must be one of {', '.join(DEALER_EXTRAS)}, not {value!r}", field)
    if value != "none" and options.get("dealer_bonus") is False:
        raise InvalidRequest(f"{field}: {value} contradicts options.dealer_bonus false (no dealer extra)", field)
    return value


def _false_win(value: object) -> dict[str, int]:
    field = "house_rules.false_win"
    if not is_mapping(value) or len(value) != 1 or next(iter(value)) not in ("as_self_draw", "amount"):
        raise InvalidRequest(f'{field}: must be {{"as_self_draw": N}} or {{"amount": A}}, not {value!r}', field)
    (kind, amount), = value.items()
    high = MAX_PATTERN_VALUE if kind == "as_self_draw" else MAX_STAKE
    return {kind: _whole(amount, 0, high, f"{field}.{kind}")}


# -- the rule set a profile scores with ------------------------------------------------


def profile_ruleset(ruleset_id: str, house_rules: Mapping[str, Any] | None) -> RuleSet:
    """The rule set under checked ``house_rules``, kept by document so an evening's replays share one."""
    base = get_ruleset(ruleset_id)
    if not house_rules or not (house_rules.keys() & {"values", "off", "on", "lei_cap"}):
        return base
    return _derived(ruleset_id, json.dumps(house_rules, sort_keys=True))


@lru_cache(maxsize=256)
def _derived(ruleset_id: str, document: str) -> RuleSet:
    rules = json.loads(document)
    base = get_ruleset(ruleset_id)
    switched_on = tuple(p for p in switchable(ruleset_id) if p.id in rules.get("on", ()))
    adjust = _adjuster(ruleset_id, rules, switched_on)
    events = tuple(e for e in base.events + tuple(p.id for p in switched_on if p.id in _EVENTS)
                   if e not in _dropped_events(rules))
    changes: dict[str, Any] = {
        "patterns": adjust(base.patterns) + adjust(switched_on),
        "events": events,
        "alone": tuple(e for e in base.alone + tuple(p.id for p in switched_on if p.id in _ALONE) if e in events),
        "switched_off": tuple(rules.get("off", ())),
    }
    if base.select:
        changes["select"] = _selector(base.select, adjust, switched_on)
    if "lei_cap" in rules:
        changes["finish"] = shanghai.finisher(rules["lei_cap"])
    return dataclasses.replace(base, **changes)


#: Events of any rule set, and those scored alone (八仙過海, 七搶一): switching one on makes it an event here too.
_EVENTS = frozenset(e for r in RULESETS.values() for e in r.events)
_ALONE = frozenset(e for r in RULESETS.values() for e in r.alone)


def _dropped_events(rules: Mapping[str, Any]) -> set[str]:
    """An event scored alone that is switched off cannot be recorded at all (it would be worth nothing)."""
    return set(rules.get("off", ())) & _ALONE


def _adjuster(ruleset_id: str, rules: Mapping[str, Any], switched_on: tuple[Pattern, ...]
              ) -> Callable[[tuple[Pattern, ...]], tuple[Pattern, ...]]:
    """A function giving a tuple of patterns with the house values, the ``off`` ones, and R8 for the ``on`` ones."""
    values, off = rules.get("values", {}), set(rules.get("off", ()))
    sibling = RULESETS[SIBLINGS[ruleset_id]] if ruleset_id in SIBLINGS else None
    on_ids = {p.id for p in switched_on}

    def adjusted(pattern: Pattern) -> Pattern:
        replaces = pattern.replaces
        if sibling is not None and on_ids and pattern.id in {p.id for p in sibling.patterns}:
            there = sibling.pattern(pattern.id).replaces
            replaces += tuple(x for x in there if x in on_ids and x not in replaces)
        return dataclasses.replace(pattern, value=values.get(pattern.id, pattern.value), replaces=replaces)

    def adjust(patterns: tuple[Pattern, ...]) -> tuple[Pattern, ...]:
        """The patterns in force: an ``off`` one is gone, and with it what it replaced (R8) is free to count."""
        return tuple(adjusted(p) for p in patterns if p.id not in off)
    return adjust


def _selector(select, adjust, switched_on):
    """The base rule set's ``select`` (its options' patterns), adjusted; one tuple per base tuple."""
    made: dict[int, tuple] = {}

    def selected(options: Mapping[str, Any]) -> tuple[Pattern, ...]:
        patterns = select(options)
        if id(patterns) not in made:
            made[id(patterns)] = (patterns, adjust(patterns) + adjust(switched_on))
        return made[id(patterns)][1]
    return selected


def scorer(ruleset_id: str, options: Mapping[str, Any] | None, house_rules: object) -> Scorer:
    """A scorer for the profile: the options and the house rules checked (422 naming the field)."""
    parsed = get_ruleset(ruleset_id).parse_options(options)
    return Scorer(profile_ruleset(ruleset_id, check_house_rules(ruleset_id, house_rules, parsed)), parsed)


# -- what a profile may change ----------------------------------------------------------


def describe(ruleset_id: str) -> dict:
    """What a profile may change in this rule set (``GET /api/rulesets``)."""
    keys = [k for k in KEYS if k not in (TAIWANESE_ONLY if ruleset_id == "shanghai" else SHANGHAI_ONLY)]
    out = {
        "keys": keys,
        "values": {"patterns": list(changeable(ruleset_id)), "minimum": 0, "maximum": MAX_PATTERN_VALUE},
        "off": list(changeable(ruleset_id)),
        "on": [p.describe() for p in switchable(ruleset_id)],
        "presets": presets_for(ruleset_id),
        "false_win": {"default": false_win_penalty(ruleset_id, {}, {}),
                      "as_self_draw": {"minimum": 0, "maximum": MAX_PATTERN_VALUE},
                      "amount": {"minimum": 0, "maximum": MAX_STAKE}},
    }
    if ruleset_id == "shanghai":
        out["lei_cap"] = {"default": shanghai.CAP, "minimum": 1, "maximum": MAX_PATTERN_VALUE}
    else:
        out["dealer_extra"] = {"default": DEALER_EXTRAS[0], "allowed": list(DEALER_EXTRAS)}
        out["max_dealer_extra"] = {"default": None, "minimum": 0, "maximum": MAX_PATTERN_VALUE}
    return out
