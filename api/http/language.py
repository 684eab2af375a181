"""The reader's language (繁體中文, 简体中文 or English): the API's own messages and pattern names in it.

``?lang=`` where an endpoint takes it, else ``Accept-Language``. The PDF and pictures default to
繁體中文 (the tables Taizhang was made for), messages to English. ``say(key, ...)`` words ``api.<key>``;
the ledger's reasons stay English (the page names the field itself). Stored results keep the rule sets'
繁體 pattern names: a 简体 reader gets them from the 简体 table (``in_reader_script``); an English one
keeps the Chinese, as the table says them.
"""
from functools import cache

from flask import has_request_context, request

from ledger.house_rules import scorable
from words import ENGLISH, SIMPLIFIED, TRADITIONAL, language, language_from_accept, pattern_name, table, word


def request_language(default: str) -> str:
    """The most wanted language of ``Accept-Language`` that Taizhang speaks, else ``default`` (also outside a
    request: a command line import)."""
    if not has_request_context():
        return default
    return language_from_accept((tag for tag, _ in request.accept_languages), default)


def reader_language(query: dict) -> str:
    """``?lang=`` when given, else the reader's ``Accept-Language``, else 繁體中文."""
    return language(query["lang"]) if "lang" in query else request_language(TRADITIONAL)


# -- messages ----------------------------------------------------------------------


def say(key: str, **values) -> str:
    """The message `key` (``api.<key>`` of the words) in the request's language, English when the reader asks
    for none Taizhang speaks."""
    return word(request_language(ENGLISH), f"api.{key}", **values)


def level_words(level: str) -> str:
    """A group token's level (``api.auth.GROUP_LEVELS``) in the request's language, for ``group_level``."""
    return word(request_language(ENGLISH), f"level.{level}")


def says(key: str) -> bool:
    """Whether there is a message `key`."""
    return f"api.{key}" in table(ENGLISH)


# -- pattern names ------------------------------------------------------------------


def in_reader_script(answer, ruleset: str):
    """`answer` (JSON-shaped) with pattern names in the reader's script; as it is for any other reader."""
    names = reader_names(ruleset)
    return answer if names is None else renamed(answer, names)


def reader_names(ruleset: str, lang: str | None = None) -> dict[str, str] | None:
    """Pattern id -> name for a reader of `lang` at a `ruleset` table; None when the stored names do. Asked once
    for a live stream, which outlives its request."""
    return simplified_names(ruleset) if (lang or request_language(TRADITIONAL)) == SIMPLIFIED else None


@cache
def simplified_names(ruleset: str) -> dict[str, str]:
    """Pattern id -> 简体中文 name of every pattern a `ruleset` session may score."""
    return {pattern.id: pattern_name(ruleset, pattern.id, SIMPLIFIED) for pattern in scorable(ruleset)}


def ruleset_in_reader_script(described: dict) -> dict:
    """A rule set as ``GET /api/rulesets`` describes it, its name and its patterns' in the reader's script."""
    answer = in_reader_script(described, described["id"])
    if answer is described:
        return described
    return {**answer, "name": word(SIMPLIFIED, f"ruleset.name.{described['id']}")}


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
