"""Fixtures for every test: the databases, the app, its test client and CLI runner.

``database_url`` is parametrised, so a test that uses it (or ``app``, ``client``,
``runner``) runs once on SQLite and once on PostgreSQL, each time on a fresh,
empty database. Tests that use none of them (the ledger's) touch no database.
"""
import pytest

from api import create_app
from api.http import db
from tests import pg


@pytest.fixture(scope="session")
def postgres_server():
    """The PostgreSQL server of this test run (see ``tests/pg.py``)."""
    server = pg.start_server()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """The SQLAlchemy URL of a fresh, empty database: a SQLite file or a PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'taizhang.sqlite'}"
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    yield server.database_url(name)
    server.drop_database(name)


@pytest.fixture
def make_app(database_url):
    """Build apps on the test's database; ``make_app(SETTING=value)`` overrides settings."""
    apps = []

    def build(**settings):
        app = create_app({"TESTING": True, "DATABASE_URL": database_url, **settings})
        apps.append(app)
        return app

    yield build
    for app in apps:
        db.dispose(app)


@pytest.fixture
def app(make_app):
    """The app on a fresh database, schema migrated."""
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
