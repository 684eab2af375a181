"""What the modules of ``ledger/`` import, read from their source with ``ast``.

No module of ``ledger/`` may import, directly or through others, a module that
imports it back: the engine (``ledger.scoring``) is given a rule set, and the
rule sets (``ledger.rules``) are built on the engine. Every import counts,
relative ones and those inside a function too: a function-level import is a
dependency all the same, only deferred.

The domain is pure Python: no Flask anywhere, and SQL only in the stores (an
evening's, ``ledger.store``, and a group's, ``ledger.group_store``) and their
migrations.
"""
from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import ledger

LEDGER = Path(ledger.__file__).parent
SQL = ("sqlalchemy", "sqlmodel")
STORES = {"ledger.store", "ledger.group_store"}


def module_name(path: Path) -> str:
    """``ledger/rules/taiwan.py`` -> ``ledger.rules.taiwan``; a package is named by its ``__init__.py``."""
    parts = path.relative_to(LEDGER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(source: str, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """Every module ``source`` imports, wherever the import sits, by its absolute name.

    ``from package import name`` imports the submodule ``package.name`` when
    there is one in ``modules``, else the package itself (a name defined in it).
    The package Python runs before a submodule is not counted unless the
    submodule names it: ``ledger.rules`` imports its rule-set modules, and a
    rule set that read a name of it would be a circle, one that does not is not.
    """
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = name if is_package else name.rpartition(".")[0]
                package = package.rsplit(".", node.level - 1)[0]  # each dot past the first: one package up
                base = f"{package}.{node.module}" if node.module else package
            else:
                base = node.module
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return found


def ledger_imports() -> dict[str, set[str]]:
    """Each module of ``ledger/`` (migrations included) -> every module it imports, ledger's or not."""
    paths = {module_name(path): path for path in sorted(LEDGER.rglob("*.py"))}
    return {name: imported_names(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", set(paths))
            for name, path in paths.items()}


def circle_from(start: str, imports: dict[str, set[str]]) -> list[str] | None:
    """The shortest chain of imports from ``start`` back to ``start``, or None."""
    chains = {start: [start]}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for imported in sorted(imports.get(module, ())):
            if imported == start:
                return chains[module] + [start]
            if imported in imports and imported not in chains:
                chains[imported] = chains[module] + [imported]
                queue.append(imported)
    return None


def circles(imports: dict[str, set[str]]) -> list[str]:
    """Every circle once (the shortest through each module), as ``a -> b -> a``."""
    found = set()
    for module in imports:
        circle = circle_from(module, imports)
        if circle:
            first = circle.index(min(circle[:-1]))  # the same circle, from any of its modules, is one
            found.add(" -> ".join(circle[first:-1] + circle[:first] + [circle[first]]))
    return sorted(found)


def reaches(start: str, imports: dict[str, set[str]]) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen, queue = set(), deque([start])
    while queue:
        for imported in imports.get(queue.popleft(), ()):
            if imported not in seen:
                seen.add(imported)
                queue.append(imported)
    return seen


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
