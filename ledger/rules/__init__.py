"""The rule sets, by id. Each module defines one :class:`~ledger.scoring.RuleSet` as data."""
from ledger.rules import shanghai, taiwan, taiwan_zz

RULESETS = {r.id: r for r in (taiwan.RULESET, taiwan_zz.RULESET, shanghai.RULESET)}
