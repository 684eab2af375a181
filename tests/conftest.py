"""Fixtures for every test: the databases, the app, its test client and CLI runner.

``database_url`` is parametrised, so a test that uses it (or ``app``, ``client``,
``runner``) runs once on SQLite and once on PostgreSQL, each time on a
database at the newest migration with no rows: each test process migrates one
database per kind once, and every test gets it emptied, at the same URL test
after test (so the app keeps its engine). ``empty_database_url`` is a fresh database
without even the migrations, for the tests of migrating; ``own_database_url``
the same migrated, for a test that breaks its database; ``module_database_url`` one
migrated database of each kind for a whole module (a server its tests share).
Tests that use none of them (the ledger's) touch no database.

``app`` is one app per test process and kind of database, on that
process's database of its kind (``tests/databases.py``'s ``app_on``), as a
server's one app serves every evening; ``make_app(SETTING=value)`` builds an
app of its own for a test that needs other settings. An app, an engine or a
database made anew for each of some 1,700 API tests was most of their CPU.

Every test is marked by where it lives, for ``make check`` (``-m "not …"``):
``browser`` (tests/e2e, Chromium), ``system`` (tests/system, real gunicorn
servers), ``fuzz`` (generated requests), and ``postgresql`` (a test's
PostgreSQL run). The modules then run longest first, by the seconds in
``tests/durations.json`` (``tests/durations.py`` says why and how to refresh it).
"""

import pytest
from hypothesis import HealthCheck, settings

from api import create_app
from api.http import db
from tests import durations, fuzzing, pg
from tests.databases import CHILDREN_FIRST, app_on, fresh_database_url

# No test fails for the machine being slow: hypothesis's deadline and its "input generation is slow" check are
# timings, and this machine's speed varies by half from hour to hour (speed is for benchmarks/). A property test
# tries a quarter of its examples (hypothesis's 100 when it names none) in make test and make check.
settings.register_profile("taizhang", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=25)
# `make fuzz`: the deep run, every property test and the fuzzing modules with all their examples (tests/fuzzing.py).
settings.register_profile(fuzzing.PROFILE, parent=settings.get_profile("taizhang"), max_examples=100)
if settings.get_current_profile_name() == "default":  # --hypothesis-profile may have loaded one already
    settings.load_profile("taizhang")

MARKED_FOLDERS = {"e2e": "browser", "system": "system"}
FUZZ_MODULES = {"test_fuzz.py", "test_any_json.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        parts = item.path.parts
        if "tests" in parts:
            folder = parts[parts.index("tests") + 1]
            if folder in MARKED_FOLDERS:
                item.add_marker(MARKED_FOLDERS[folder])
        if item.path.name in FUZZ_MODULES:
            item.add_marker("fuzz")
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.id.split("-"):
            item.add_marker("postgresql")
    items[:] = durations.longest_modules_first(items, durations.load())


@pytest.fixture(scope="session")
def postgres_server():
    """The PostgreSQL server of this test run (see ``tests/pg.py``)."""
    server = pg.start_server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite file migrated to head once per test process."""
    path = tmp_path_factory.mktemp("template") / "taizhang.sqlite"
    db.upgrade_database(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def sqlite_home(tmp_path_factory):
    """Where this test process's tests find their SQLite database, one after another (``fresh_database_url``)."""
    return tmp_path_factory.mktemp("database")


@pytest.fixture(scope="session")
def postgresql_database(postgres_server):
    """A PostgreSQL database migrated to head once per test process."""
    name = postgres_server.create_database()
    db.upgrade_database(postgres_server.database_url(name))
    yield name
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_kind(request):
    return request.param


@pytest.fixture
def database_url(request, database_kind, tmp_path):
    """The SQLAlchemy URL of a database at the newest migration with no rows: a SQLite file or a PostgreSQL database."""
    return fresh_database_url(request, database_kind, tmp_path)


@pytest.fixture
def empty_database_url(request, database_kind, tmp_path):
    """The SQLAlchemy URL of a fresh, empty database (not even migrated)."""
    if database_kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite'}"
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    yield server.database_url(name)
    server.drop_database(name)


@pytest.fixture
def own_database_url(empty_database_url):
    """A fresh migrated database of the test's own, for a test that breaks it (drops a table)."""
    db.upgrade_database(empty_database_url)
    return empty_database_url


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def module_database_url(request, tmp_path_factory):
    """A migrated database of each kind for a whole module, for a server the module's tests share (a gunicorn
    start was most of such a test's time); each test works on evenings and groups of its own."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('module') / 'taizhang.sqlite'}"
        db.upgrade_database(url)
        yield url
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    db.upgrade_database(server.database_url(name))
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


@pytest.fixture(scope="session")
def shared_apps():
    """One app per kind of database for this test process, built on first use."""
    return {}


@pytest.fixture
def app(shared_apps, database_kind, database_url):
    """The app on the test's fresh database: this process's app of that kind, moved to it."""
    with app_on(shared_apps, database_kind, database_url) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
