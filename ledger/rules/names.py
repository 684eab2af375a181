"""The rule sets' own names, in 繁體中文, from the words table (``words/zh-Hant.json``), so that a pattern
is named once per language; the stored results keep these names.

>>> pattern = pattern_maker("taiwan")
>>> found = pattern("concealed_self_draw", 3, lambda c: True)
>>> found.name, found.value, ruleset_name("taiwan")
('門清一摸三', 3, '台灣十六張 (莊家台, 連莊)')
"""
from __future__ import annotations

from collections.abc import Callable

from ledger.scoring import Context, Pattern
from words import TRADITIONAL, pattern_name, word


def pattern_maker(ruleset_id: str) -> Callable[..., Pattern]:
    """``Pattern`` for one rule set's table: the same fields but the name, which the words give."""
    def pattern(pattern_id: str, value: int, count: Callable[[Context], int | bool],
                replaces: tuple[str, ...] = (), unit: str = "tai") -> Pattern:
        return Pattern(pattern_id, pattern_name(ruleset_id, pattern_id, TRADITIONAL), value, count, replaces, unit)
    return pattern


def ruleset_name(ruleset_id: str) -> str:
    """The rule set's own name (``ruleset.name.<id>``), as ``GET /api/rulesets`` and the sheets give it."""
    return word(TRADITIONAL, f"ruleset.name.{ruleset_id}")
