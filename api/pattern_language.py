"""Pattern names in an API answer in the reader's script: 简体中文 names to a zh-Hans reader.

The rule sets name their patterns in 繁體中文 (``ledger.rules``), and the
stored results keep those names. A reader whose ``Accept-Language`` asks for
简体中文 gets each pattern named from ``ledger.pattern_names``' table instead:
every object of the answer with a pattern ``id`` and a ``name``. An English
reader keeps the Chinese names, which the page shows as the table says them.
"""
from api.language import request_language
from ledger.pattern_names import pattern_names
from reports.words import SIMPLIFIED, TRADITIONAL, ruleset_name


def in_reader_script(answer, ruleset: str):
    """`answer` (JSON-shaped) with pattern names in the reader's script; as it is for any other reader."""
    if request_language(TRADITIONAL) != SIMPLIFIED:
        return answer
    return _renamed(answer, pattern_names(ruleset, SIMPLIFIED))


def ruleset_in_reader_script(described: dict) -> dict:
    """A rule set as ``GET /api/rulesets`` describes it, its name and its patterns' in the reader's script."""
    answer = in_reader_script(described, described["id"])
    if answer is described:
        return described
    return {**answer, "name": ruleset_name(described["id"], described["name"], SIMPLIFIED)}


def _renamed(value, names: dict[str, str]):
    if isinstance(value, dict):
        renamed = {key: _renamed(item, names) for key, item in value.items()}
        if "name" in renamed and renamed.get("id") in names:
            renamed["name"] = names[renamed["id"]]
        return renamed
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    return value
