"""A test's fresh database and the process's app moved to it: what ``tests/conftest.py``'s fixtures do, for a test
that needs both kinds at once (``tests/api/http/test_fuzz.py`` sends each generated request to both)."""
import contextlib
import shutil
import sqlite3

import pytest

from api import create_app
from api.competitions.events import BOARD_KEY
from api.http import db
from api.http import live
from ledger import competition_store, group_store, store  # noqa: F401 (every table in the metadata)

CHILDREN_FIRST = [table.name for table in reversed(store.metadata.sorted_tables)]
# For tests whose requests read and write no database (/api/score, /api/rulesets): a PostgreSQL run of them
# would check nothing more. A test that writes, locks, reads money or checks a token keeps both kinds.
SQLITE_ONLY = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)


def fresh_database_url(request, kind: str, tmp_path) -> str:
    """``database_url`` of ``kind``: this process's one database of that kind, emptied (a real server's test, which
    may leave a worker behind, gets a SQLite file of its own). The same URL test after test keeps the app's engine
    (``app_on``); the rows are deleted in place, as the last test's threads may still read the file."""
    if kind == "sqlite":
        if request.node.get_closest_marker("system"):
            path = tmp_path / "taizhang.sqlite"
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
            return f"sqlite:///{path}"
        path = request.getfixturevalue("sqlite_home") / "taizhang.sqlite"
        if not _emptied(path):
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    server = request.getfixturevalue("postgres_server")
    name = request.getfixturevalue("postgresql_database")
    server.empty_tables(name, CHILDREN_FIRST)
    return server.database_url(name)


def _emptied(path) -> bool:
    """Delete every row of the SQLite database at ``path`` (children first), ids starting again at 1; False if there
    is none."""
    if not path.exists():
        return False
    connection = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        connection.execute("BEGIN IMMEDIATE")
        for table in CHILDREN_FIRST:
            connection.execute(f'DELETE FROM "{table}"')
        if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone():
            connection.execute("DELETE FROM sqlite_sequence")
        connection.execute("COMMIT")
    finally:
        connection.close()
    return True


@contextlib.contextmanager
def app_on(shared_apps: dict, kind: str, url: str):
    """This process's app of ``kind`` on the database at ``url``; its settings and engine restored afterwards.

    A new URL gets a new engine; the same URL keeps it, its pool emptied: a new engine compiled every statement
    again and, on PostgreSQL, asked the server its settings, for every test (docs/development.md, "The suite")."""
    app = shared_apps.get(kind)
    if app is None:
        app = shared_apps[kind] = create_app({"TESTING": True, "DATABASE_URL": url})
    elif app.config["DATABASE_URL"] != url:
        db.use_database(app, url)
    engines = {key: app.extensions[key] for key in (db.ENGINE_KEY, db.ONE_READ_KEY)}
    live.watcher(app).use(engines[db.ENGINE_KEY])  # as a server's on start: what it followed, where it had read to
    app.extensions.pop(BOARD_KEY, None)  # and the competitions' Board; its rate limits are off (TESTING)
    settings = dict(app.config)  # a test may change a setting (EVENTS_STREAM_S …) for itself alone
    try:
        yield app
    finally:
        given = db.get_engine(app)  # (a test may have given the app an engine of its own)
        app.extensions.update(engines)
        for engine in {given, engines[db.ENGINE_KEY]}:
            engine.dispose()
        app.config.clear()
        app.config.update(settings)
