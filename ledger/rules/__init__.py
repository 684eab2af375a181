"""The rule sets, by id, and scoring a hand under the one a request names (the engine never looks one up).

>>> result = score("taiwan", {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"},
...                {"by": "discard"}, seat_wind="S")
>>> result.total, [(p.id, p.value) for p in result.patterns]
(3, [('concealed', 1), ('all_chows', 2)])
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.errors import InvalidRequest
from ledger.rules import shanghai, taiwan, taiwan_zz
from ledger.scoring import RuleSet, Score, Scorer

RULESETS: dict[str, RuleSet] = {r.id: r for r in (taiwan.RULESET, taiwan_zz.RULESET, shanghai.RULESET)}


def get_ruleset(ruleset_id: Any) -> RuleSet:
    """The rule set of this id; anything else is an :class:`InvalidRequest` listing the known ids."""
    if type(ruleset_id) is not str or ruleset_id not in RULESETS:
        raise InvalidRequest(f"ruleset: unknown rule set {ruleset_id!r} (known: {', '.join(RULESETS)})",
                             "ruleset")
    return RULESETS[ruleset_id]


def score(ruleset_id: str, hand: Mapping[str, Any] | None, win: Mapping[str, Any] | None = None, *,
          seat_wind: str = "E", round_wind: str = "E", hand_wind: str = "E", dealer: bool | None = None,
          options: Mapping[str, Any] | None = None) -> Score:
    """Validate and score one hand; raises :class:`~ledger.errors.LedgerError` with the reason."""
    return Scorer(get_ruleset(ruleset_id), options).score(hand, win, seat_wind=seat_wind, round_wind=round_wind,
                                                          hand_wind=hand_wind, dealer=dealer)
