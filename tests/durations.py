"""The order the suite's modules run in: the longest first, by the seconds in ``tests/durations.json``.

xdist hands each worker a contiguous share of the collected items and, as a
worker runs dry, lets it take the far end of another's queue (``--dist
worksteal``). Collected in the folders' order, the longest modules (fuzzing,
the crash and system tests, the browser's) came last, so the run ended with
one core idle while the other worked through them. Longest first, the run's
end is the short tests, which the workers share.

Modules stay whole and in their own order (their module-scoped servers and
parameters are set up once); a module missing from the file (a test added
since) is guessed at its folder's seconds per test times its number of tests.
Refresh the file from a run's JUnit report::

    make test PYTEST_ARGS=--junitxml=/tmp/suite.xml   # or any pytest run with --junitxml
    .venv/bin/python -m tests.durations /tmp/suite.xml
"""
import collections
import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DURATIONS = Path(__file__).with_name("durations.json")


def load(path: Path = DURATIONS) -> dict[str, dict]:
    """``{module path: {"seconds": s, "tests": n}}``; empty without a file."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def longest_modules_first(items: list, durations: dict[str, dict]) -> list:
    """``items`` grouped by module, the modules sorted by their seconds (longest first), each in its own order."""
    modules: dict[str, list] = {}
    for item in items:
        modules.setdefault(module_of(item), []).append(item)
    per_test = _seconds_per_test_by_folder(durations)
    overall = per_test.get("", 0.0)

    def seconds(module: str) -> float:
        known = durations.get(module)
        if known:
            return known["seconds"]
        return len(modules[module]) * per_test.get(str(Path(module).parent), overall)

    return [item for module in sorted(modules, key=seconds, reverse=True) for item in modules[module]]


def module_of(item) -> str:
    """The item's file relative to the repository, e.g. ``tests/api/http/test_fuzz.py``."""
    try:
        return item.path.relative_to(ROOT).as_posix()
    except ValueError:
        return item.path.as_posix()


def _seconds_per_test_by_folder(durations: dict[str, dict]) -> dict[str, float]:
    seconds, tests = collections.Counter(), collections.Counter()
    for module, figures in durations.items():
        for folder in (str(Path(module).parent), ""):
            seconds[folder] += figures["seconds"]
            tests[folder] += figures["tests"]
    return {folder: seconds[folder] / tests[folder] for folder in tests if tests[folder]}


def from_junit(paths: list[str]) -> dict[str, dict]:
    """Seconds (setup, call and teardown) and tests per module, from pytest's JUnit reports."""
    seconds, tests = collections.Counter(), collections.Counter()
    for path in paths:
        for case in ElementTree.parse(path).getroot().iter("testcase"):
            module = _module_path(case.get("classname", ""))
            if module:
                seconds[module] += float(case.get("time") or 0)
                tests[module] += 1
    return {module: {"seconds": round(seconds[module], 1), "tests": tests[module]} for module in sorted(tests)}


def _module_path(classname: str) -> str | None:
    """``tests.api.http.test_fuzz`` (or ``…test_x.TestClass``) as the module's path, if that file exists."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        candidate = Path(*parts[:end]).with_suffix(".py")
        if (ROOT / candidate).is_file():
            return candidate.as_posix()
    return None


def write(durations: dict[str, dict], path: Path = DURATIONS) -> None:
    """One module a line, sorted, so that a refresh's diff reads module by module."""
    lines = [f"{json.dumps(module)}: {json.dumps(figures, sort_keys=True)}" for module, figures in sorted(durations.items())]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    write(from_junit(sys.argv[1:]))
