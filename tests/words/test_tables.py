"""The words tables (``words/``): one per language, each key in every one, every key read somewhere.

Read without a browser: the tables as files, and the sources that read them
(Python under ``api/``, ``ledger/``, ``reports/`` and ``words/``, the page's
modules under ``api/page/static/app/js/``) as text. A key is read where it
is written out whole, where the page's ``t('name')`` reads ``page.name``, an
``api`` module's ``say("name")`` or ``Missing("name")`` reads ``api.name`` and
``table_word("name")`` reads ``table.name``, a ``Worded("name")`` refusal (``ledger.errors``) or
``Closed("name")`` reads ``api.name``. A key built from a value
(``reason.`` + a payment reason's code, ``pattern.`` + a pattern id, the
page's `` t(`meld_${kind}`) ``) is checked against the list the values come
from: the ledger's (the codes ``ledger.explain`` gives, the rule sets'
patterns, options and events …) or, for the page's own choices, its named
list (``MELD_KINDS``). Each test here was seen to fail on the fault it names
(a key taken out of one table, an unread key, a key the code names but no
table has, a list's value with no key, a file out of order, a placeholder
renamed in one language).
"""
from __future__ import annotations

import ast
import dataclasses
import json
import re
from functools import cache
from pathlib import Path

import pytest
from werkzeug.exceptions import default_exceptions

from api.http.auth import GROUP_LEVELS
from api.http.errors import PREFIXES as ERROR_PREFIXES
from ledger.entries import DRAW_REASONS, EVENTS, value_field
from ledger.house_rules import scorable
from ledger.payments import DEALER_EXTRAS, Stakes
from ledger.presets import PRESETS
from ledger.rules import RULESETS
from ledger.scoring import WIN_BY
from ledger.table import WINDS
from words import ENGLISH, FOLDER, LANGUAGES, PAGE, table

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sorted(path for folder in ("api", "ledger", "reports", "words") for path in (ROOT / folder).rglob("*.py")
                if "migrations" not in path.parts)
JS = sorted((ROOT / "api" / "page" / "static" / "app" / "js").rglob("*.js"))
PREFIXES = ("page", "reason", "hand", "option", "sheet", "card", "table", "rounding", "api", "level", "pattern",
            "ruleset", "preset", "guide")
KEY = re.compile(rf"^(?:{'|'.join(PREFIXES)})\.[\w.+-]+$")
PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")
JS_STRINGS = (re.compile(r"'((?:[^'\\\n]|\\.)*)'"), re.compile(r'"((?:[^"\\\n]|\\.)*)"'),
              re.compile(r"`((?:[^`\\]|\\.)*)`"))
JS_COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S | re.M)
JS_T_CALL = re.compile(r"""\bt\((['`])([^'`]*)\1""")
JS_WORD_CALL = re.compile(r"""\b(?:word\(|words\[)(['`])([^'`]*)\1""")
#: Calls whose first argument names a key without its prefix: (function, the modules' folder, prefix).
IMPLICIT = (("say", "api", "api."), ("Missing", "api", "api."), ("table_word", "reports", "table."),
            ("Worded", "ledger", "api."), ("Worded", "api", "api."), ("Closed", "api", "api."))


def tables() -> dict[str, dict[str, str]]:
    """Every language's table."""
    return {lang: table(lang) for lang in LANGUAGES}


def every_key() -> set[str]:
    """The keys of any table."""
    return set().union(*tables().values())


# -- the files ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_file_is_canonical_one_key_a_line_sorted(lang):
    text = (FOLDER / f"{lang}.json").read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def test_every_key_is_in_every_language_and_says_something():
    keys = every_key()
    for lang, words in tables().items():
        assert sorted(keys - set(words)) == [], f"{lang} lacks these keys"
        assert sorted(key for key, text in words.items() if not text.strip()) == [], f"{lang}: empty"
        assert sorted(key for key in words if not KEY.match(key)) == [], f"{lang}: keys without a known prefix"


def test_the_placeholders_of_a_key_agree_across_languages():
    words = tables()
    for key in every_key():
        found = {lang: sorted(set(PLACEHOLDER.findall(words[lang][key]))) for lang in LANGUAGES}
        assert len({tuple(names) for names in found.values()}) == 1, (key, found)
        for lang in LANGUAGES:  # no stray brace: Python fills every text
            words[lang][key].format(**dict.fromkeys(found[lang], "x"))


def test_the_page_is_served_the_keys_it_reads():
    served = {key for key in every_key() if key.startswith(PAGE)}
    assert {key.split(".")[0] + "." for key in served} == set(PAGE)


# -- what the sources read ---------------------------------------------------------------


@cache
def python_trees() -> dict[Path, ast.AST]:
    """The Python sources, parsed."""
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in PYTHON}


def reads_words(tree: ast.AST) -> bool:
    """Whether a module imports from the words (only those can name a key)."""
    return any(isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "words"
               for node in ast.walk(tree))


def strings(tree: ast.AST) -> set[str]:
    """The string constants of a module (not an f-string's fixed parts)."""
    parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts}


@cache
def python_strings() -> frozenset[str]:
    """Every string constant of the Python modules that read the words: where a key is written out whole."""
    return frozenset().union(*(strings(tree) for tree in python_trees().values() if reads_words(tree)))


@cache
def implicit_keys() -> frozenset[str]:
    """The keys named without their prefix: ``say("closed")`` is ``api.closed``."""
    found = set()
    for path, tree in python_trees().items():
        for function, folder, prefix in IMPLICIT:
            if path.relative_to(ROOT).parts[0] != folder:
                continue
            for node in ast.walk(tree):
                called = isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                if called == function and node.args and isinstance(node.args[0], ast.Constant):
                    found.add(prefix + node.args[0].value)
    return frozenset(found)


@cache
def js_text() -> str:
    """The page's modules, without their comments."""
    return JS_COMMENT.sub("", "\n".join(path.read_text(encoding="utf-8") for path in JS))


@cache
def js_strings() -> frozenset[str]:
    """Every string literal of the page's modules, quoted or a template's text as written, each kind read apart so
    that a quoted name inside a template's ``${…}`` counts too."""
    return frozenset(text for literal in JS_STRINGS for text in literal.findall(js_text()))


def js_templates() -> set[str]:
    """The keys the page builds from a value, each as ``page.meld_{}`` for `` t(`meld_${kind}`) ``."""
    return {re.sub(r"\$\{[^}]*\}", "{}", prefix + text)
            for call, prefix in ((JS_T_CALL, "page."), (JS_WORD_CALL, "")) for _, text in call.findall(js_text())
            if "${" in text} - {"page.{}"}  # i18n.js's t() itself


def js_list(module: str, name: str) -> list[str]:
    """The strings of the page's list `name` (``const MELD_KINDS = ['chow', …];``) in `module`."""
    source = (JS[0].parent / module).read_text(encoding="utf-8")
    return re.findall(r"'([^']*)'", re.search(rf"const {name} = \[([^\]]*)\];", source).group(1))


def page_families() -> dict[str, list]:
    """Each key the page builds from a value, and the values: the ledger's lists, or the page's own."""
    units = {pattern.unit for ruleset in RULESETS for pattern in scorable(ruleset)} | set(map(value_field, RULESETS))
    stakes = {(stake, ruleset.unit) for ruleset in RULESETS.values()  # 底 and 台 at a Taiwanese table, 底分 in shanghai
              for stake in (("base", "per_tai") if ruleset.unit == "tai" else ("base",))}
    return {
        "page.reason_{}": DRAW_REASONS,
        "page.dealer_extra_{}": DEALER_EXTRAS,
        "page.unit_{}": sorted(units),
        "page.unit_short_{}": sorted(set(map(value_field, RULESETS))),
        "page.stake_{}_{}": sorted(stakes),
        "page.meld_{}": js_list("parts/picker.js", "MELD_KINDS"),
        "page.flag_{}": js_list("parts/picker.js", "WIN_FLAGS"),
        "page.target_{}": js_list("parts/picker.js", "TARGETS"),
        "page.mode_{}": js_list("screens/evening/win.js", "ENTRY_MODES"),
        "page.event_{}": sorted({event for ruleset in RULESETS.values() for event in ruleset.events}),
        "reason.formula_{}": [formula for formula in DEALER_EXTRAS if formula != "none"],
        "option.{}": sorted({option.id for ruleset in RULESETS.values() for option in ruleset.options}),
        "ruleset.name.{}": sorted(RULESETS),
    }


def page_built_keys() -> set[str]:
    """Every key the page builds from a value, the values being those of `page_families`."""
    return {template.format(*(value if isinstance(value, tuple) else (value,)))
            for template, values in page_families().items() for value in values}


def reason_codes() -> set[str]:
    """Every ``code`` ``ledger.explain`` gives a reason: its literal ones, how a hand was won, the events alone."""
    tree = python_trees()[ROOT / "ledger" / "explain.py"]
    literal = {value.value for node in ast.walk(tree) if isinstance(node, ast.Dict)
               for key, value in zip(node.keys, node.values)
               if isinstance(key, ast.Constant) and key.value == "code" and isinstance(value, ast.Constant)}
    return literal | set(WIN_BY) | set().union(*EVENTS.values())


def built_keys() -> dict[str, set[str]]:
    """The keys built from a value, by prefix, from the lists the values come from: each must be in the tables."""
    patterns = {(ruleset, pattern.id) for ruleset in RULESETS for pattern in scorable(ruleset)}
    units = ({pattern.unit for ruleset in RULESETS for pattern in scorable(ruleset)}
             | {value_field(ruleset) for ruleset in RULESETS} | {ruleset.unit for ruleset in RULESETS.values()})
    return {
        "reason": {f"reason.{code}" for code in reason_codes()}
                  | {f"reason.formula_{formula}" for formula in DEALER_EXTRAS if formula != "none"},
        "pattern": {f"pattern.{pattern_id}" for _, pattern_id in patterns},
        "ruleset": {f"ruleset.{kind}.{ruleset}" for kind in ("name", "short") for ruleset in RULESETS},
        "option": {f"option.{option.id}" for ruleset in RULESETS.values() for option in ruleset.options},
        "preset": {f"preset.name.{preset.name_key or preset.id}" for preset in PRESETS}
                  | {f"preset.text.{preset.text_key or preset.id}" for preset in PRESETS},
        "level": {f"level.{level}" for level in GROUP_LEVELS},
        "api": {f"api.{key}" for key in ERROR_PREFIXES.values()},
        "table": {f"table.{name}" for name in (*WINDS, *DRAW_REASONS, *WIN_BY)} | {f"table.unit_{u}" for u in units}
                 | {f"table.stake_{stake.name}" for stake in dataclasses.fields(Stakes)},
    }


def overridden_patterns() -> set[str]:
    """``pattern.<ruleset>.<id>``: a rule set's own name for a pattern it may score."""
    return {f"pattern.{ruleset}.{pattern.id}" for ruleset in RULESETS for pattern in scorable(ruleset)}


def werkzeug_messages() -> set[str]:
    """``api.http_<code>``: werkzeug's own errors, reworded (``api.http.errors``)."""
    return {f"api.http_{code}" for code in default_exceptions}


def is_read(key: str) -> bool:
    """Whether a source reads `key`: written out whole, named without its prefix, or built from a known value."""
    if key in python_strings() or key in js_strings() or key in implicit_keys():
        return True
    if key.startswith("page.") and key.removeprefix("page.") in js_strings():  # t('name')
        return True
    return key in set().union(*built_keys().values()) | page_built_keys() | overridden_patterns() | werkzeug_messages()


def test_every_key_is_read_somewhere():
    unread = sorted(key for key in tables()[ENGLISH] if not is_read(key))
    assert unread == [], "no source reads these keys: remove them, or read them"


def test_every_key_the_python_code_names_is_in_the_tables():
    named = {text for text in python_strings() if KEY.match(text)} | implicit_keys()
    assert sorted(named - every_key()) == []


def test_every_key_the_page_names_is_served_to_it():
    served = {key for key in every_key() if key.startswith(PAGE)}
    named = {f"page.{name}" for _, name in JS_T_CALL.findall(js_text()) if "${" not in name}
    named |= {name for _, name in JS_WORD_CALL.findall(js_text()) if "${" not in name}
    assert sorted(named - served) == []


def test_every_key_the_page_builds_is_served_to_it():
    assert sorted(js_templates() - set(page_families())) == [], "say where the values of these keys come from"
    served = {key for key in every_key() if key.startswith(PAGE)}
    assert sorted(page_built_keys() - served) == []


def test_every_key_built_from_a_value_is_in_the_tables():
    missing = {prefix: sorted(keys - every_key()) for prefix, keys in built_keys().items()}
    assert {prefix: keys for prefix, keys in missing.items() if keys} == {}
