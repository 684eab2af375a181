"""What the modules of a package import, read from their source with ``ast``: the walk the layout tests share.

Every import counts, relative ones and those inside a function too: a
function-level import is a dependency all the same, only deferred.
"""
from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    """``ledger/rules/taiwan.py`` -> ``ledger.rules.taiwan``; a package is named by its ``__init__.py``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
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


def package_imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (``ledger``, ``api``; every subpackage included) -> every module it imports,
    the package's or not."""
    paths = {module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}
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
