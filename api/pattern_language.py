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
    names = reader_names(ruleset)
    return answer if names is None else renamed(answer, names)


def reader_names(ruleset: str, lang: str | None = None) -> dict[str, str] | None:
    """Pattern id -> name for a reader of `lang` (else of this request's) at a `ruleset` table; None when the
    stored names do.

    Asked once for a live stream (``api.events``), which goes on after its request.
    """
    return pattern_names(ruleset, SIMPLIFIED) if (lang or request_language(TRADITIONAL)) == SIMPLIFIED else None


def ruleset_in_reader_script(described: dict) -> dict:
    """A rule set as ``GET /api/rulesets`` describes it, its name and its patterns' in the reader's script."""
    answer = in_reader_script(described, described["id"])
    if answer is described:
        return described
    return {**answer, "name": ruleset_name(described["id"], described["name"], SIMPLIFIED)}


def renamed(value, names: dict[str, str]):
    """`value` with every object that has a pattern ``id`` of `names` and a ``name`` named from `names`."""
    if isinstance(value, dict):
        out = {key: renamed(item, names) for key, item in value.items()}
        if "name" in out and out.get("id") in names:
            out["name"] = names[out["id"]]
        return out
    if isinstance(value, list):
        return [renamed(item, names) for item in value]
    return value
