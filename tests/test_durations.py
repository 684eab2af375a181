"""The suite's order (tests/durations.py): modules longest first, each whole and in its own order."""
from pathlib import Path
from types import SimpleNamespace

from tests import durations


def item(module: str, name: str):
    return SimpleNamespace(path=durations.ROOT / module, name=name)


def test_modules_run_longest_first_each_whole_and_in_its_own_order():
    items = [item("tests/api/test_a.py", "a1"), item("tests/system/test_b.py", "b1"),
             item("tests/api/test_a.py", "a2"), item("tests/system/test_b.py", "b2"), item("tests/ledger/test_c.py", "c1")]
    known = {"tests/api/test_a.py": {"seconds": 3.0, "tests": 2}, "tests/system/test_b.py": {"seconds": 40.0, "tests": 2},
             "tests/ledger/test_c.py": {"seconds": 0.5, "tests": 1}}
    ordered = durations.longest_modules_first(items, known)
    assert [i.name for i in ordered] == ["b1", "b2", "a1", "a2", "c1"]


def test_a_module_not_in_the_file_is_guessed_at_its_folders_seconds_per_test():
    # tests/system: 40 s over 2 tests = 20 s a test, so a new module of 3 system tests counts 60 s and goes first;
    # a new module in a folder the file does not know counts the whole file's 43.5 s / 5 tests = 8.7 s a test.
    known = {"tests/api/test_a.py": {"seconds": 3.0, "tests": 2}, "tests/system/test_b.py": {"seconds": 40.0, "tests": 2},
             "tests/ledger/test_c.py": {"seconds": 0.5, "tests": 1}}
    items = [item("tests/api/test_a.py", "a1"), item("tests/system/test_b.py", "b1"), item("tests/new/test_n.py", "n1"),
             *(item("tests/system/test_new.py", f"s{i}") for i in range(3))]
    ordered = durations.longest_modules_first(items, known)
    assert [i.name for i in ordered] == ["s0", "s1", "s2", "b1", "n1", "a1"]


def test_a_junit_report_sums_each_modules_seconds_and_counts_its_tests(tmp_path: Path):
    report = tmp_path / "report.xml"
    report.write_text("""<testsuites><testsuite>
      <testcase classname="tests.test_durations" name="one" time="1.25"/>
      <testcase classname="tests.test_durations" name="two" time="2.5"/>
      <testcase classname="tests.pg.Server" name="doctest" time="0.5"/>
      <testcase classname="tests.gone" name="three" time="9"/>
    </testsuite></testsuites>""", encoding="utf-8")
    assert durations.from_junit([str(report)]) == {"tests/test_durations.py": {"seconds": 3.8, "tests": 2},
                                                  "tests/pg.py": {"seconds": 0.5, "tests": 1}}
