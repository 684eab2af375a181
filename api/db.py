"""The database: one engine per app, one SQLModel session per request, migrations on start.

SQLite connections run in WAL mode with foreign keys enforced and a busy timeout,
and every transaction starts with ``BEGIN IMMEDIATE`` (SQLAlchemy's pysqlite
recipe): a writer takes the write lock up front, so two requests can never
deadlock upgrading a read lock, they queue instead. PostgreSQL needs none of this.
"""
from alembic import command
from alembic.config import Config
from flask import current_app, g
from sqlalchemy import create_engine, event, pool
from sqlalchemy.engine import URL, Engine, make_url
from sqlmodel import Session

ENGINE_KEY = "taizhang.engine"
BUSY_TIMEOUT_MS = 5000
MIGRATIONS = "ledger:migrations"


def database_url(url: str | URL) -> URL:
    """Parse a database URL; a bare ``postgresql://`` means the psycopg 3 driver.

    >>> database_url("postgres://club@db/taizhang").drivername
    'postgresql+psycopg'
    >>> database_url("sqlite:///instance/taizhang.sqlite").drivername
    'sqlite'
    """
    url = make_url(url)
    if url.drivername in ("postgres", "postgresql"):
        return url.set(drivername="postgresql+psycopg")
    return url


def make_engine(url: str | URL, *, foreign_keys: bool = True, **kwargs) -> Engine:
    """An engine for ``url``; on SQLite with the pragmas and locking described above."""
    url = database_url(url)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, **kwargs)
    # pysqlite's timeout is SQLite's busy timeout (no SQL string to build)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _configure_sqlite(engine, foreign_keys)
    return engine


def _configure_sqlite(engine: Engine, foreign_keys: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # pysqlite must not emit BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON" if foreign_keys else "PRAGMA foreign_keys = OFF")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def upgrade_database(url: str | URL) -> None:
    """Run every pending Alembic migration (``upgrade head``) on the database at ``url``.

    SQLite runs migrations with foreign keys off, as table rebuilds in batch mode
    require; PostgreSQL serialises concurrent upgrades with an advisory lock.
    """
    engine = make_engine(url, foreign_keys=False, poolclass=pool.NullPool)
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    try:
        with engine.connect() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()


def init_app(app) -> None:
    """Upgrade the app's database, then give the app its engine and per-request sessions."""
    url = app.config["DATABASE_URL"]
    upgrade_database(url)
    app.extensions[ENGINE_KEY] = make_engine(url)
    app.teardown_appcontext(_close_session)


def get_engine(app=None) -> Engine:
    """The engine of ``app`` (default: the current app)."""
    return (app or current_app).extensions[ENGINE_KEY]


def get_session() -> Session:
    """The SQLModel session of the current request, opened on first use."""
    if "db_session" not in g:
        g.db_session = Session(get_engine())
    return g.db_session


def _close_session(_exception=None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def dispose(app) -> None:
    """Close every pooled connection of ``app`` (before dropping its database)."""
    get_engine(app).dispose()
