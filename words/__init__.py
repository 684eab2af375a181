"""The words a person reads: one table per language, ``zh-Hant.json``, ``zh-Hans.json`` and ``en.json``.

Every text of the page, the API's messages, the sheets, the pictures and the names of patterns, rule
sets and presets is a key of each table, so a new language is one more file. Each file is what
``json.dumps(table, ensure_ascii=False, indent=0, sort_keys=True)`` writes, one key a line, so a change
shows as the lines it changes (``tests/words/``). A key's prefix says its reader: ``page.`` the page,
``reason.``/``hand.`` the page and the PDF alike (worded once), ``sheet.``, ``card.``, ``api.``, ...
``pattern.<ruleset>.<id>`` overrides ``pattern.<id>`` where a rule set words a pattern its own way;
简体 names are mainland words, not converted characters; English keeps the Chinese name in brackets.

Not here, on purpose: the ledger's 422 reasons (English; the page names the field), CSV headers (the
API's field names) and tile faces (what is printed on a tile).

>>> word("en", "reason.base", amount=100), word("zh-Hant", "reason.discard"), word("zh", "reason.discard")
('base 100', '放槍', '放槍')
>>> pattern_name("taiwan", "all_chows", "zh-Hans"), pattern_name("shanghai", "all_pungs", "zh-Hans")
('平和', '碰碰胡')
>>> [pattern_name(ruleset, "concealed_self_draw", "zh-Hant") for ruleset in ("taiwan", "taiwan_zz")]
['門清一摸三', '門清自摸']
>>> pattern_name("taiwan", "all_chows", "en")
'all chows (平胡)'
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

TRADITIONAL, SIMPLIFIED, ENGLISH = "zh-Hant", "zh-Hans", "en"
LANGUAGES = (TRADITIONAL, SIMPLIFIED, ENGLISH)
OLD_NAMES = {"zh": TRADITIONAL}  # `lang=zh` of links and scripts from before 简体中文
ACCEPTED = LANGUAGES + tuple(OLD_NAMES)  # what `?lang=` and `--lang` take
SIMPLIFIED_REGIONS = {"cn", "sg", "my"}
#: The prefixes of the keys the phone page reads (``GET /app/words/<lang>.json``).
PAGE = ("page.", "reason.", "hand.", "option.", "ruleset.")
FOLDER = Path(__file__).parent


def language(value: str | None) -> str:
    """`value` if it is a known language (`zh` being zh-Hant), else 繁體中文 (the sheets' default)."""
    value = OLD_NAMES.get(value, value)
    return value if value in LANGUAGES else TRADITIONAL


def language_of_tag(tag: str) -> str | None:
    """The language of a BCP 47 tag, or None when Taizhang does not speak it.

    >>> [language_of_tag(t) for t in ("zh-CN", "zh-Hans-HK", "zh-sg", "zh-TW", "zh-HK", "zh", "en-GB", "fr")]
    ['zh-Hans', 'zh-Hans', 'zh-Hans', 'zh-Hant', 'zh-Hant', 'zh-Hant', 'en', None]
    """
    parts = re.split("[-_]", tag.strip().lower())
    if parts[0] == "en":
        return ENGLISH
    if parts[0] != "zh":
        return None
    if "hans" in parts:
        return SIMPLIFIED
    if "hant" in parts:
        return TRADITIONAL
    return SIMPLIFIED if SIMPLIFIED_REGIONS & set(parts[1:]) else TRADITIONAL


def language_from_accept(tags: Iterable[str], default: str) -> str:
    """The first of `tags` (most wanted first, as in `Accept-Language`) that Taizhang speaks, else `default`.

    >>> language_from_accept(["fr-FR", "zh-CN", "en"], "en")
    'zh-Hans'
    >>> language_from_accept(["de"], "zh-Hant")
    'zh-Hant'
    """
    return next((found for found in map(language_of_tag, tags) if found), default)


@cache
def table(lang: str) -> dict[str, str]:
    """The whole table of `lang` (zh-Hant for a language Taizhang does not speak), read once per process."""
    return json.loads((FOLDER / f"{language(lang)}.json").read_text(encoding="utf-8"))


def word(lang: str, key: str, **values) -> str:
    """The text of `key` in `lang`, its ``{placeholders}`` filled from `values`."""
    text = table(lang)[key]
    return text.format(**values) if values else text


@cache
def page_table(lang: str) -> dict[str, str]:
    """What the phone page reads of `lang`'s table: the keys of the ``PAGE`` prefixes."""
    return {key: text for key, text in table(lang).items() if key.startswith(PAGE)}


def pattern_name(ruleset: str, pattern_id: str, lang: str) -> str:
    """The name of pattern `pattern_id` at a `ruleset` table in `lang`; its id when no table names it."""
    words = table(lang)
    name = words.get(f"pattern.{ruleset}.{pattern_id}") or words.get(f"pattern.{pattern_id}")
    if name is None:
        return pattern_id
    if language(lang) == ENGLISH:
        return f"{name} ({pattern_name(ruleset, pattern_id, TRADITIONAL)})"
    return name
