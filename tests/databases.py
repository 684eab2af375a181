"""A test's fresh database and the process's app moved to it: what ``tests/conftest.py``'s fixtures do, for a test
that needs both kinds at once (``tests/api/http/test_fuzz.py`` sends each generated request to both)."""
import contextlib
import shutil

import pytest

from api import create_app
from api.http import db
from api.http import live
from ledger import competition_store, group_store, store  # noqa: F401 (every table in the metadata)

CHILDREN_FIRST = [table.name for table in reversed(store.metadata.sorted_tables)]
# For tests whose requests read and write no database (/api/score, /api/rulesets): a PostgreSQL run of them
# would check nothing more. A test that writes, locks, reads money or checks a token keeps both kinds.
SQLITE_ONLY = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)


def fresh_database_url(request, kind: str, tmp_path) -> str:
    """``database_url`` of ``kind``, for a test that runs the same thing on both kinds (tests/api/http/test_fuzz)."""
    if kind == "sqlite":
        path = tmp_path / "taizhang.sqlite"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    server = request.getfixturevalue("postgres_server")
    name = request.getfixturevalue("postgresql_database")
    server.empty_tables(name, CHILDREN_FIRST)
    return server.database_url(name)


@contextlib.contextmanager
def app_on(shared_apps: dict, kind: str, url: str):
    """This process's app of ``kind`` moved to the database at ``url``; its settings restored afterwards."""
    app = shared_apps.get(kind)
    if app is None:
        app = shared_apps[kind] = create_app({"TESTING": True, "DATABASE_URL": url})
    else:
        engine = db.use_database(app, url)
        live.watcher(app).use(engine)  # its rate limits are off (TESTING): no other state to reset
    settings = dict(app.config)  # a test may change a setting (EVENTS_STREAM_S …) for itself alone
    try:
        yield app
    finally:
        db.dispose(app)
        app.config.clear()
        app.config.update(settings)
