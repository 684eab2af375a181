"""What the modules of ``ledger/`` import, read from their source with ``ast``.

No module of ``ledger/`` may import, directly or through others, a module that
imports it back: the engine (``ledger.scoring``) is given a rule set, and the
rule sets (``ledger.rules``) are built on the engine. Every import counts
(``tests/imports.py``).

The domain is pure Python: no Flask anywhere, and SQL only in the stores (an
evening's, ``ledger.store``, a group's, ``ledger.group_store``, and a competition's,
``ledger.competition_store``) and their
migrations.
"""
from __future__ import annotations

from tests.imports import circles, imported_names, package_imports, reaches

SQL = ("sqlalchemy", "sqlmodel")
STORES = {"ledger.store", "ledger.group_store", "ledger.competition_store"}


def ledger_imports() -> dict[str, set[str]]:
    """Each module of ``ledger/`` (migrations included) -> every module it imports, ledger's or not."""
    return package_imports("ledger")


def test_no_module_of_ledger_imports_itself_back():
    found = circles(ledger_imports())
    assert not found, "import circles in ledger/:\n" + "\n".join(found)


def test_the_engine_does_not_import_the_rule_sets():
    assert sorted(m for m in reaches("ledger.scoring", ledger_imports()) if m.startswith("ledger.rules")) == []


def test_ledger_imports_no_flask_and_sql_only_in_the_store():
    imports = ledger_imports()
    flask = {module for module, names in imports.items()
             if any(n.split(".")[0] == "flask" or n.startswith("flask_") for n in names)}
    sql = {module for module, names in imports.items() if any(n.split(".")[0] in SQL for n in names)}
    assert flask == set()
    outside_the_stores = {m for m in sql if m not in STORES and not m.startswith("ledger.migrations.")}
    assert outside_the_stores == set()
    assert STORES <= sql  # the check reads the imports it means to


# The walk itself, on a made-up module ``ledger.rules.extra`` beside these:
MODULES = {"ledger", "ledger.tiles", "ledger.scoring", "ledger.rules", "ledger.rules.predicates",
           "ledger.rules.extra"}
SOURCE = '''
import itertools
import ledger.tiles
from . import predicates
from .. import scoring as engine
from ..rules import predicates as p
from ledger.errors import InvalidHand

def late():
    from ledger.rules import RULESETS
    from ledger import tiles, scoring
'''


def test_the_walk_sees_every_kind_of_import():
    assert imported_names(SOURCE, "ledger.rules.extra", False, MODULES) == {
        "itertools", "ledger.tiles", "ledger.rules.predicates", "ledger.scoring", "ledger.errors",
        "ledger.rules"}


def test_a_package_resolves_its_relative_imports_from_itself():
    assert imported_names("from . import predicates\nfrom .. import tiles", "ledger.rules", True, MODULES) == {
        "ledger.rules.predicates", "ledger.tiles"}


def test_a_circle_is_named_once_through_every_module_on_it():
    imports = {"ledger.a": {"ledger.b"}, "ledger.b": {"ledger.c", "os"}, "ledger.c": {"ledger.a"},
               "ledger.d": {"ledger.a"}}
    assert circles(imports) == ["ledger.a -> ledger.b -> ledger.c -> ledger.a"]
