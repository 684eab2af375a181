"""The JSON of ``GET /api/rulesets``: every rule set as a reader of this request's language reads it.

Also what the phone page's HTML carries inline (``api.page.routes.index``), so that a new phone's start form asks
the network for no rule sets (benchmarks/page_load.py): the same answer, by one function.
"""
from api.http.language import ruleset_in_reader_script
from ledger import house_rules, rules


def rulesets_view() -> list[dict]:
    """Every rule set: its patterns (id, name, value), options (defaults), what house rules may change."""
    return [ruleset_in_reader_script({**r.describe(), "house_rules": house_rules.describe(r.id)})
            for r in rules.RULESETS.values()]
