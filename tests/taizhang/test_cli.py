"""The ``taizhang`` command as a person types it (issue 40, item 7), run in-process by click's runner.

A read (``report``, ``group-report``, ``backup``) creates no database and names the one it read; ``--data``
is taken after the command as before it; counts are in the singular for one; ``serve --help`` names no file
of the source tree.

The evening: taiwan, 底 100, 台 20, Amy deals; Ben wins 3 台 on Cat's discard: Cat pays 100 + 3 × 20 = 160.
"""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from api import create_app
from taizhang.cli import main


@pytest.fixture
def run(tmp_path, monkeypatch):
    """``taizhang ARGS`` with the default folder in the test's own XDG_DATA_HOME and no DATABASE_URL."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for name in ("DATABASE_URL", "TAIZHANG_DATA"):
        monkeypatch.delenv(name, raising=False)

    def invoke(*args):
        return CliRunner().invoke(main, [str(arg) for arg in args], catch_exceptions=False)

    return invoke


@pytest.fixture
def club(tmp_path) -> tuple[Path, str]:
    """A database folder holding the evening above; (the folder, the evening's id)."""
    folder = tmp_path / "club"
    folder.mkdir()
    client = create_app({"DATABASE_URL": f"sqlite:///{folder / 'taizhang.sqlite'}"}).test_client()
    created = client.post("/api/sessions", json={"name": "Friday", "ruleset": "taiwan",
                                                 "players": ["Amy", "Ben", "Cat", "Dan"],
                                                 "stakes": {"base": 100, "per_tai": 20}}).get_json()
    hand = {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"}
    answer = client.post(f"/api/sessions/{created['id']}/hands", json=hand,
                         headers={"Authorization": f"Bearer {created['token']}"})
    assert answer.status_code == 201 and answer.get_json()["totals"]["Cat"] == -160
    return folder, created["id"]


@pytest.mark.parametrize("command", [("report", "abc"), ("group-report", "abc"), ("backup", "out")])
def test_a_read_without_a_database_says_where_it_looked_and_creates_nothing(run, tmp_path, command):
    result = run(*command)
    default = tmp_path / "xdg" / "taizhang" / "taizhang.sqlite"
    assert result.exit_code == 1
    assert f"No database at {default}: nothing was recorded there." in result.output
    assert "--data DIR or DATABASE_URL" in result.output
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "out").exists()


def test_an_unknown_session_or_group_names_the_database_read(run, club):
    folder, _ = club
    result = run("report", "nope", "--data", folder)
    assert result.exit_code == 1
    assert f"No session 'nope' in {folder / 'taizhang.sqlite'}." in result.output
    result = run("--data", folder, "group-report", "nope")
    assert f"No group 'nope' in {folder / 'taizhang.sqlite'}." in result.output


def test_data_after_the_command_is_the_database_read(run, club, tmp_path):
    folder, session_id = club
    result = run("backup", tmp_path / "backups", "--data", folder)
    assert result.exit_code == 0, result.output
    assert f"Wrote 1 session to {tmp_path / 'backups'}" in result.output
    document = json.loads((tmp_path / "backups" / f"{session_id}.json").read_text(encoding="utf-8"))
    assert document["name"] == "Friday" and document["totals"]["Cat"] == -160
    # After the command it wins over the one before it.
    result = run("--data", tmp_path / "elsewhere", "report", session_id, "-o", tmp_path / "sheet.pdf",
                 "--data", folder)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert not (tmp_path / "elsewhere").exists()


def test_one_hand_is_counted_in_the_singular(run, club, tmp_path):
    folder, session_id = club
    result = run("--data", folder, "report", session_id, "-o", tmp_path / "sheet.pdf")
    assert result.output == f"Wrote {tmp_path / 'sheet.pdf'} (1 hand, 4 participants)\n"


def test_import_still_creates_its_database(run, club, tmp_path):
    folder, session_id = club
    assert run("backup", tmp_path / "backups", "--data", folder).exit_code == 0
    result = run("import", tmp_path / "backups" / f"{session_id}.json", "--data", tmp_path / "new")
    assert result.exit_code == 0, result.output
    assert "Imported 1 of 1 file" in result.output and (tmp_path / "new" / "taizhang.sqlite").is_file()


def test_serve_help_points_at_no_file_an_installed_user_lacks(run, tmp_path):
    result = run("serve", "--help")
    assert result.exit_code == 0
    assert ".py" not in result.output and "gunicorn" not in result.output
    assert "--workers" in result.output and "--data" in result.output
    assert not (tmp_path / "xdg").exists()


def test_version_is_the_installed_package_s(run):
    """One source of truth: pyproject's version, as the installed package's metadata carries it."""
    import tomllib

    wanted = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    result = run("--version")
    assert result.exit_code == 0
    assert result.output == f"taizhang {wanted['project']['version']}\n"
