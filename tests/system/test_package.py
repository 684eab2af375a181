"""Issue 26: the package as a club installs it, and its ``taizhang`` command.

A wheel is built from a copy of the tree (so no ``build/`` of the checkout
leaks into it), installed into a fresh virtual environment outside the
checkout, and ``taizhang serve`` run from an empty folder. To stay fast, the
new environment does not download the dependencies again: a ``.pth`` line
puts the test run's site-packages after its own (a path line only: that
folder's own ``.pth`` files, the checkout's editable install among them, are
not read), and the wheel goes in with ``--no-deps``; the test checks that
``api`` and ``taizhang`` then come from the new environment, not the checkout.

Driven over HTTP: the page and its assets, the API docs, an evening recorded
(totals worked by hand below); then ``taizhang backup --keep``, ``taizhang
report`` and a restore with ``taizhang import`` into an empty database, served
again, with the same totals. The database is where ``XDG_DATA_HOME`` says,
never inside the installed package.

The evening (taiwan, 底 100, 台 20, dealer extra 1 + 2n):
1. Ben 3 台 on Cat's discard, Amy deals: Cat pays 100 + 3 × 20 = 160.
2. Ben self-draws 1 台 and deals (streak 0, extra 1): Amy, Cat, Dan each pay 100 + 2 × 20 = 140.
Totals: Amy -140, Ben +580, Cat -300, Dan -140.
"""
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.system.announcing import AnnouncingServer
from tests.system.server import ROOT

TOTALS = {"Amy": -140, "Ben": 580, "Cat": -300, "Dan": -140}
SOURCES = ("pyproject.toml", "README.md", "api", "ledger", "reports", "words", "taizhang")
#: What the server reads besides Python modules, as the wheel must hold it.
DATA_FILES = ("api/page/static/app/index.html", "api/page/static/app/js/main.js", "api/page/static/app/sw.js",
              "api/page/static/app/app.css", "api/page/static/app/icons/icon-192.png",
              "api/page/static/manifest.webmanifest", "ledger/migrations/alembic.ini", "ledger/migrations/env.py",
              "ledger/migrations/versions/0001_sessions_entries_audits.py", "words/en.json", "words/zh-Hans.json",
              "words/zh-Hant.json", "reports/fonts.py", "taizhang/cli.py", "api/guide/static/guide.css",
              "api/guide/pages/en/evening.md", "api/guide/pages/zh-Hant/evening.md", "api/guide/pages/pictures/table-en.png")


def run(*command, cwd=None, env=None) -> str:
    result = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment holding the wheel of the tree; its folder."""
    work = tmp_path_factory.mktemp("package")
    tree = work / "tree"
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            tree.mkdir(exist_ok=True)
            shutil.copy2(source, tree / name)
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", work / "dist", tree)
    wheel = next((work / "dist").glob("taizhang-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert sorted(set(DATA_FILES) - names) == []
    assert not any(name.startswith(("tests/", "instance/", "fixtures/")) for name in names)
    venv = work / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    site = Path(run(venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-deps", "--quiet", wheel)
    return venv


def test_the_installed_command_serves_records_backs_up_and_restores(installed, tmp_path):
    empty = tmp_path / "here"
    empty.mkdir()
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg"), "PATH": f"{installed / 'bin'}:/usr/bin:/bin"}
    site = run(installed / "bin" / "python", "-c", "import api, taizhang; print(api.__file__, taizhang.__file__)",
               cwd=empty)
    assert all(path.startswith(str(installed)) for path in site.split()), site  # the wheel, not the checkout

    server = AnnouncingServer([installed / "bin" / "taizhang", "serve", "--host", "127.0.0.1", "--port", "0",
                               "--workers", "1"], env=env, cwd=empty)
    try:
        base = server.here
        page = fetch(f"{base}/")
        assert b'<script type="module" src="/app/js/main.js?v=' in page
        for asset in ("/app/js/main.js", "/app/icons/icon-192.png", "/manifest.webmanifest", "/app/words/zh-Hant.json",
                      "/api/docs", "/api/openapi.json", "/guide/static/guide.css", "/guide/pictures/table-en.png"):
            assert fetch(f"{base}{asset}"), asset
        assert json.loads(fetch(f"{base}/app/words/zh-Hant.json"))["page.share"] == "分享"
        assert "<h1>一晚的牌局</h1>" in fetch(f"{base}/guide/evening?lang=zh-Hant").decode()  # the guide, from the wheel
        session = call(base, "POST", "/api/sessions", {
            "name": "Friday", "ruleset": "taiwan", "players": ["Amy", "Ben", "Cat", "Dan"],
            "stakes": {"base": 100, "per_tai": 20}})
        auth = {"Authorization": f"Bearer {session['token']}"}
        for hand in ({"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"},
                     {"winners": [{"player": "Ben", "tai": 1}], "by": "self_draw"}):
            call(base, "POST", f"/api/sessions/{session['id']}/hands", hand, auth)
        assert call(base, "GET", f"/api/sessions/{session['id']}", headers=auth)["totals"] == TOTALS
        assert fetch(f"{base}/api/sessions/{session['id']}/report.pdf", auth).startswith(b"%PDF")
    finally:
        server.stop()
    database = tmp_path / "xdg" / "taizhang" / "taizhang.sqlite"
    assert database.is_file()
    assert not list(installed.rglob("*.sqlite"))  # nothing written inside the environment

    taizhang = installed / "bin" / "taizhang"
    out = run(taizhang, "backup", tmp_path / "backups", "--keep", "3", cwd=empty, env=env)
    assert "Wrote 1 session to" in out
    [night] = (tmp_path / "backups").iterdir()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ", night.name)
    out = run(taizhang, "report", session["id"], "-o", tmp_path / "sheet.pdf", "--lang", "en", cwd=empty, env=env)
    assert "2 hands" in out and (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")

    # Restore into an empty database (another folder), serve it, and find the evening there.
    out = run(taizhang, "--data", tmp_path / "restored", "import", night, cwd=empty, env=env)
    restored_id = re.search(r"is now session (\w+)", out).group(1)
    token = re.search(r"token (\S+)", out).group(1)
    server = AnnouncingServer([taizhang, "serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1",
                               "--data", tmp_path / "restored"], env=env, cwd=empty)
    try:
        restored = call(server.here, "GET", f"/api/sessions/{restored_id}", headers={"Authorization": f"Bearer {token}"})
        assert restored["totals"] == TOTALS and restored["name"] == "Friday"
    finally:
        server.stop()


def test_taizhang_help_lists_the_commands_without_making_a_database(installed, tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg"), "PATH": "/usr/bin:/bin"}
    out = run(installed / "bin" / "taizhang", "--help", cwd=tmp_path, env=env)
    assert {"serve", "backup", "import", "report", "group-report"} <= set(re.findall(r"^  (\S+)", out, re.M))
    assert not (tmp_path / "xdg").exists()
    out = run(installed / "bin" / "taizhang", "serve", "--help", cwd=tmp_path, env=env)
    assert "--host" in out and "--port" in out and "--workers" in out and "--data" in out


def fetch(url: str, headers: dict | None = None) -> bytes:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as response:
        assert response.status == 200, url
        return response.read()


def call(base: str, method: str, path: str, body=None, headers: dict | None = None):
    request = urllib.request.Request(f"{base}{path}", method=method, headers={"Content-Type": "application/json",
                                                                              **(headers or {})},
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())
