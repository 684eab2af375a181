"""benchmarks/README.md stays a table of today's figures and a paragraph per benchmark (issue 41 item 5)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "benchmarks" / "README.md"
HELPERS = {"floor.py", "clients.py", "profile_summary.py", "__init__.py"}  # parts of benchmarks, not benchmarks


def test_it_is_at_most_300_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


def test_every_benchmark_has_a_row_of_todays_figures_and_a_paragraph_on_its_method():
    text = README.read_text(encoding="utf-8")
    table = text.split("## Today's figures", 1)[1].split("\n## ", 1)[0]
    method = text.split("## What each measures", 1)[1]
    scripts = {path.name for path in (ROOT / "benchmarks").glob("*.py")} - HELPERS
    assert scripts, "no benchmark scripts found"
    missing_rows = {name for name in scripts if not re.search(rf"^\| `{re.escape(name)}", table, re.M)}
    missing_paragraphs = {name for name in scripts if f"**`{name}`**" not in method}
    assert not missing_rows, f"no row in 'Today's figures' for {sorted(missing_rows)}"
    assert not missing_paragraphs, f"no paragraph in 'What each measures' for {sorted(missing_paragraphs)}"

