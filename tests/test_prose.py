"""The product's docstrings are brief (issue 41): they say why; figures live in benchmarks/, history in git.

A module's docstring is at most 15 lines and so is a class's (a class reads like a small module); a
function's or method's at most 6. Lines are counted in the source, opening quotes to closing ones,
leaving out doctest examples (a ``>>>`` line and what follows it up to a blank line): examples are
tests, not prose. All docstring lines, examples included, are at most 15 % of the product's Python
lines (ledger, api, reports, words, taizhang, migrations included; not tests, benchmarks, scripts).
"""
import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ledger", "api", "reports", "words", "taizhang")
LIMITS = {"module": 15, "class": 15, "function": 6}
SHARE = 0.15
DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def docstrings(tree: ast.Module) -> Iterator[tuple[str, str, ast.Expr]]:
    """Each docstring in a parsed module as (kind, qualified name, its expression), nested ones included."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, str, ast.Expr]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, DEFINITIONS):
                name = prefix + child.name
                if ast.get_docstring(child, clean=False) is not None:
                    yield "class" if isinstance(child, ast.ClassDef) else "function", name, child.body[0]
                yield from walk(child, name + ".")
            else:
                yield from walk(child, prefix)
    if ast.get_docstring(tree, clean=False) is not None:
        yield "module", "<module>", tree.body[0]
    yield from walk(tree, "")


def prose_lines(lines: list[str]) -> int:
    """How many of a docstring's source lines are not a doctest example (``>>>`` up to a blank line)."""
    prose, in_example = 0, False
    for line in lines:
        text = line.strip()
        example = text.startswith(">>>") or in_example  # the blank line that ends an example is the example's
        in_example = text.startswith(">>>") or (in_example and text != "")
        prose += not example
    return prose


def measure(source: str, label: str) -> tuple[list[str], int, int]:
    """A module's docstrings over their limits (as messages), its docstring lines and all its lines."""
    lines = source.splitlines()
    over, total = [], 0
    for kind, name, node in docstrings(ast.parse(source)):
        span = lines[node.lineno - 1:node.end_lineno]
        total += len(span)
        if (prose := prose_lines(span)) > LIMITS[kind]:
            over.append(f"{label}:{node.lineno} {name}: {kind} docstring of {prose} lines (at most {LIMITS[kind]})")
    return over, total, len(lines)


def product() -> dict[str, list[Path]]:
    """The product's Python files by package."""
    return {package: sorted((ROOT / package).rglob("*.py")) for package in PACKAGES}


def test_each_docstring_within_its_limit():
    over = [message for paths in product().values() for path in paths
            for message in measure(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))[0]]
    assert not over, f"{len(over)} docstrings too long:\n" + "\n".join(over)


def test_docstrings_a_small_share_of_the_product():
    counts = {}
    for package, paths in product().items():
        measured = [measure(path.read_text(encoding="utf-8"), str(path))[1:] for path in paths]
        counts[package] = (sum(docs for docs, _ in measured), sum(lines for _, lines in measured))
    docs, lines = sum(d for d, _ in counts.values()), sum(n for _, n in counts.values())
    table = "\n".join(f"{package}: {d} of {n} lines ({d / n:.1%})" for package, (d, n) in counts.items())
    assert docs <= SHARE * lines, f"docstrings are {docs} of {lines} lines ({docs / lines:.1%}):\n{table}"


BRIEF = '''"""One line for the module."""


class Tally:
    """A class of three lines:
    the second,
    the third."""

    def add(self, n):
        """Six lines, quotes and blanks included,
        2
        3
        4

        >>> Tally().add(1)
        1
        >>> [n
        ...  for n in (1, 2)]
        [1, 2]

        6"""
        return n
'''


def test_the_count_on_small_sources():
    assert measure(BRIEF, "brief") == ([], 1 + 3 + 12, BRIEF.count("\n"))
    seven = BRIEF.replace("4\n", "4\n        4b\n", 1)
    assert measure(seven, "seven")[0] == ["seven:10 Tally.add: function docstring of 7 lines (at most 6)"]
    module = '"""' + "line\n" * 15 + '"""\nx = 1\n'
    assert measure(module, "m") == (["m:1 <module>: module docstring of 16 lines (at most 15)"], 16, 17)
    nested = 'if True:\n    def f():\n        """1\n2\n3\n4\n5\n6\n7"""\n'
    assert measure(nested, "n")[0] == ["n:3 f: function docstring of 7 lines (at most 6)"]
