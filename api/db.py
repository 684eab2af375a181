"""The database: one engine per app, one SQLModel session per request, migrations on start.

A request that changes something calls ``begin_write`` before its first
statement; its transaction then holds the database's write lock on SQLite
(``BEGIN IMMEDIATE``), so two writers queue instead of deadlocking on a read
lock each wants to upgrade. Reads begin a plain (deferred) transaction and,
in WAL mode, never wait for a writer. On PostgreSQL both are a plain
``BEGIN``; a change locks its session's row itself (``store.lock_session``).

SQLite connections run in WAL mode with foreign keys enforced. Its writers
wait their turn in a queue (``WriterQueue``) rather than in SQLite's busy
handler. A pooled PostgreSQL connection that the server closed (a restart)
is replaced when it is checked out (``pool_pre_ping``).

**The pool** keeps ``POOL_SIZE`` connections per process and opens no
others: a request that finds them all busy waits for one (``pool_timeout``,
30 s). SQLAlchemy's default, 5 kept and 10 more opened when needed and
closed when given back, made a busy gevent worker (about 16 requests at
once at 400 tables) open a new connection, on PostgreSQL a new server
process, for a large share of its requests, and lose its prepared
statements with it: ``benchmarks/club_night.py --tables 400 --seconds 30
--database postgresql`` gave record p99 ≈ 4–10 s, and 0.6 s with the fixed pool.
"""
import contextlib
import fcntl
import functools
import json
import threading

from alembic import command
from alembic.config import Config
from flask import current_app, g
from sqlalchemy import create_engine, event, pool
from sqlalchemy.engine import URL, Engine, make_url
from sqlmodel import Session

ENGINE_KEY = "taizhang.engine"
BUSY_TIMEOUT_MS = 5000
POOL_SIZE = 16  # per process; on PostgreSQL, workers × POOL_SIZE must fit its max_connections (100 by default)
MIGRATIONS = "ledger:migrations"
WRITE = "taizhang_write"  # the execution option that makes a SQLite transaction BEGIN IMMEDIATE
WRITER_LOCK_SUFFIX = ".writer-lock"
HOLDS_WRITER_QUEUE = "taizhang.holds_writer_queue"

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
    """An engine for ``url`` with the pool described above; on SQLite with the pragmas and ``BEGIN``."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", column_json)
    if "poolclass" not in kwargs and url.database not in (None, "", ":memory:"):
        kwargs.setdefault("pool_size", POOL_SIZE)
        kwargs.setdefault("max_overflow", 0)
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, **kwargs)
    # pysqlite's timeout is SQLite's busy timeout (no SQL string to build)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _configure_sqlite(engine, foreign_keys)
    return engine


def _configure_sqlite(engine: Engine, foreign_keys: bool) -> None:
    """SQLAlchemy's pysqlite recipe: SQLAlchemy, not the driver, emits BEGIN (IMMEDIATE for writes)."""
    queue = WriterQueue.beside(engine.url)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # pysqlite must not emit BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON" if foreign_keys else "PRAGMA foreign_keys = OFF")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        if not connection.get_execution_options().get(WRITE, False):
            connection.exec_driver_sql("BEGIN")
            return
        if queue:
            queue.wait_for_turn(connection)
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    if queue:
        event.listen(engine, "commit", lambda connection: queue.end_turn(connection, "commit"))
        event.listen(engine, "rollback", lambda connection: queue.end_turn(connection, "rollback"))
        event.listen(engine.pool, "reset", lambda _dbapi, record, _state: queue.release(record))


class WriterQueue:
    """SQLite's writers, across threads and processes, take the write lock in turn.

    Without it a writer that finds the lock taken sleeps in SQLite's busy
    handler (1, 2, 5, 10 … 100 ms) and polls, and a freed lock goes to
    whoever polls first. When many writes come at once, say 400 tables
    opening together, or every phone's offline outbox when the club's Wi-Fi
    comes back, some writer kept losing for the whole busy timeout and its
    hand failed: ``benchmarks/club_night.py --tables 400`` on SQLite got a 500
    while opening the tables (8 hands each, 64 connections) without the queue,
    none with it. Here writers queue on ``flock`` of a file beside the database,
    which the kernel hands to the next waiter as soon as it is freed (and
    frees if its process dies); within a process they queue on a lock first,
    so that at most one thread (or greenlet) of a process waits in ``flock``.
    """

    def __init__(self, lock_path: str):
        self.lock_path = lock_path
        self.in_process = threading.Lock()

    @classmethod
    def beside(cls, url: URL) -> "WriterQueue | None":
        """The queue of a SQLite database file (none for an in-memory database)."""
        if not url.database or url.database == ":memory:":
            return None
        return cls(url.database + WRITER_LOCK_SUFFIX)

    def wait_for_turn(self, connection) -> None:
        """Wait until this connection may begin a write; each pooled connection keeps its lock file open."""
        self.in_process.acquire()
        try:
            lock_file = connection.info.get(WRITER_LOCK_SUFFIX)
            if lock_file is None:
                lock_file = connection.info[WRITER_LOCK_SUFFIX] = open(self.lock_path, "a+b")
            fcntl.flock(lock_file, fcntl.LOCK_EX)
        except BaseException:
            self.in_process.release()
            raise
        connection.info[HOLDS_WRITER_QUEUE] = True

    @contextlib.contextmanager
    def whole_turn(self):
        """Hold the turn for a whole block (the upgrade on start), connecting included."""
        with self.in_process, open(self.lock_path, "a+b") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)

    def end_turn(self, connection, end: str) -> None:
        """End the transaction (``commit`` or ``rollback``) on the driver, then let the next writer in.

        SQLAlchemy fires its ``commit`` and ``rollback`` events *before* it
        ends the transaction; freed there, the next writer's ``BEGIN
        IMMEDIATE`` would find SQLite's own lock still held (during the
        commit's fsync) and sleep in the busy handler. pysqlite's own
        ``commit()`` or ``rollback()``, which SQLAlchemy calls next, then
        finds no transaction open and does nothing.
        """
        try:
            getattr(connection.connection.driver_connection, end)()
        finally:
            self.release(connection)

    def release(self, connection) -> None:
        """Let the next writer in, if this connection (or pool record) has the turn."""
        if connection.info.pop(HOLDS_WRITER_QUEUE, False):
            fcntl.flock(connection.info[WRITER_LOCK_SUFFIX], fcntl.LOCK_UN)
            self.in_process.release()


def upgrade_database(url: str | URL) -> None:
    """Run every pending Alembic migration (``upgrade head``) on the database at ``url``.

    SQLite runs migrations with foreign keys off, as table rebuilds in batch mode
    require, holding the writer queue's turn from before it connects (setting
    a new file to WAL needs the database to itself); PostgreSQL serialises
    concurrent upgrades with an advisory lock.
    """
    engine = make_engine(url, foreign_keys=False, poolclass=pool.NullPool)
    queue = WriterQueue.beside(engine.url) if engine.dialect.name == "sqlite" else None
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    try:
        with queue.whole_turn() if queue else contextlib.nullcontext():
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
    """The SQLModel session of the current request, opened on first use.

    What it read stays readable after a commit (``expire_on_commit=False``):
    the request's answer is built from what it has just written.
    """
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
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
