"""One meaning per name: a public class or function (module level, not starting with ``_``) is defined in one
product module of ``ledger/`` and ``api/``, unless it is on the short list below of names that mean the same
thing wherever they are defined.

A route's class (a ``MethodView`` of a module that makes a ``blp``) is left out: it is reached through its
URL only, never imported (``tests/api/test_layout.py``), so its name is its route's.
"""
import ast
from collections import defaultdict

from tests.imports import ROOT, module_name

SAME_MEANING = {
    "init_app": "a Flask extension's hook on the app, by Flask's convention, one per module of api/http",
    "audit_view": "a line of its resource's audit trail as the API shows it (an evening's, a group's, a competition's)",
    "list_audits": "the rows of its resource's audit trail, oldest first, from that resource's store",
    "replace_tokens": "new tokens for its resource (an evening, a group), the old ones retired",
    "standings_view": "its resource's standings as the API shows them (a group's members, a competition's entrants)",
}


def is_route(node: ast.AST) -> bool:
    return isinstance(node, ast.ClassDef) and any(getattr(base, "id", None) == "MethodView" for base in node.bases)


def public_names(source: str) -> set[str]:
    """The module-level classes and functions of ``source`` whose names do not start with ``_``, routes left out."""
    return {node.name for node in ast.parse(source).body
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and not node.name.startswith("_") and not is_route(node)}


def defined_twice(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each public name defined in more than one of ``sources`` (module name -> its text) -> those modules."""
    where = defaultdict(list)
    for module, source in sorted(sources.items()):
        for name in public_names(source):
            where[name].append(module)
    return {name: modules for name, modules in where.items() if len(modules) > 1}


def product_sources() -> dict[str, str]:
    return {module_name(path): path.read_text(encoding="utf-8") for package in ("ledger", "api")
            for path in sorted((ROOT / package).rglob("*.py")) if "migrations" not in path.parts}


def test_each_public_name_means_one_thing():
    twice = defined_twice(product_sources())
    assert {name: modules for name, modules in twice.items() if name not in SAME_MEANING} == {}
    assert set(SAME_MEANING) <= set(twice)  # the list holds nothing that has since become one


def test_a_second_class_of_a_name_is_found_and_a_route_is_not():
    sources = {"ledger.draw": "class Table:\n    pass\n", "ledger.table": "class Table:\n    pass\n",
               "api.a.routes": "class Hand(MethodView):\n    def get(self): ...\n",
               "ledger.hand": "def _Hand(): ...\nclass Hand:\n    pass\n"}
    assert defined_twice(sources) == {"Table": ["ledger.draw", "ledger.table"]}
