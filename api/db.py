"""The database: one engine per app, one SQLModel session per request, migrations on start.

A request that changes something calls ``begin_write`` before its first
statement; its transaction then holds the database's write lock on SQLite
(``BEGIN IMMEDIATE``), so two writers queue instead of deadlocking on a read
lock each wants to upgrade. Reads begin a plain (deferred) transaction and,
in WAL mode, never wait for a writer. On PostgreSQL both are a plain
``BEGIN``; a change locks its session's row itself (``store.lock_session``).

SQLite connections run in WAL mode with foreign keys enforced; a writer that
finds the write lock taken waits in SQLite's busy handler (``BUSY_TIMEOUT_MS``).
A club night writes a few hands a second, so writers rarely meet
(``benchmarks/club_night.py``). A pooled PostgreSQL connection that the
server closed (a restart) is replaced when it is checked out (``pool_pre_ping``).
"""
import functools
import json

from alembic import command
from alembic.config import Config
from flask import current_app, g
from sqlalchemy import create_engine, event, pool
from sqlalchemy.engine import URL, Engine, make_url
from sqlmodel import Session

ENGINE_KEY = "taizhang.engine"
BUSY_TIMEOUT_MS = 5000
MIGRATIONS = "ledger:migrations"
WRITE = "taizhang_write"  # the execution option that makes a SQLite transaction BEGIN IMMEDIATE

# JSON columns: compact, and names stored as UTF-8 rather than \u escapes.
column_json = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


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
    """An engine for ``url``; on SQLite with the pragmas and ``BEGIN`` described above."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", column_json)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, **kwargs)
    # pysqlite's timeout is SQLite's busy timeout (no SQL string to build)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _configure_sqlite(engine, foreign_keys)
    return engine


def _configure_sqlite(engine: Engine, foreign_keys: bool) -> None:
    """SQLAlchemy's pysqlite recipe: SQLAlchemy, not the driver, emits BEGIN (IMMEDIATE for writes)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # pysqlite must not emit BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON" if foreign_keys else "PRAGMA foreign_keys = OFF")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        write = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


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


def begin_write(db: Session) -> None:
    """Begin ``db``'s transaction as a write: on SQLite it takes the write lock now (``BEGIN IMMEDIATE``).

    Call it before the first statement of a request that changes something:
    a transaction that began as a read could not take the lock later
    without risking a deadlock with another writer, so that is refused.
    """
    if db.in_transaction():
        raise RuntimeError("begin_write: this session's transaction has already begun")
    db.connection(execution_options={WRITE: True})


def _close_session(_exception=None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def dispose(app) -> None:
    """Close every pooled connection of ``app`` (before dropping its database)."""
    get_engine(app).dispose()
