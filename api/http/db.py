"""The database: one engine per app, one SQLModel session per request, migrations on start.

A change calls ``begin_write`` before its first statement: on SQLite ``BEGIN IMMEDIATE``, so writers
queue (``WriterQueue``) instead of deadlocking on a read lock each wants to upgrade; on PostgreSQL a
plain ``BEGIN``, the session's row locked by the change. A write outside it is refused. SQLite reads are
one deferred snapshot (WAL: never waiting for a writer); PostgreSQL reads run without a transaction, as
at READ COMMITTED each statement sees the same either way. Round trips cost a gevent worker a switch and
PostgreSQL a statement, so none are spent on ``BEGIN``/``ROLLBACK`` or a pre-ping. The pool keeps
``POOL_SIZE`` connections and opens no others: opening more under load cost new server processes and
prepared statements (``benchmarks/club_night.py --database postgresql``).
"""
import contextlib
import fcntl
import functools
import json
import threading
from importlib.resources import files

from flask import current_app, g
from sqlalchemy import create_engine, event, exc, pool, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlmodel import Session

from api.http.offload import give_way, pause

ENGINE_KEY = "taizhang.engine"
BUSY_TIMEOUT_MS = 5000
POOL_SIZE = 16  # per process; on PostgreSQL, workers × pool size must fit its max_connections (100 by default)
MIGRATIONS = "ledger:migrations"
WRITE = "taizhang_write"  # the execution option that makes a SQLite transaction BEGIN IMMEDIATE
ONE_READ = "taizhang_one_read"  # and the one that sends no BEGIN: one statement is its own snapshot
ONE_READ_KEY = "taizhang.one_read_engine"
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


def database_name(url: str | URL) -> str:
    """How a person is told which database was read: an SQLite file's path, else the URL without its password.

    >>> database_name("sqlite:////srv/club/taizhang.sqlite")
    '/srv/club/taizhang.sqlite'
    >>> database_name("postgresql://club:secret@db/taizhang")
    'postgresql+psycopg://club:***@db/taizhang'
    """
    url = database_url(url)
    if url.get_backend_name() == "sqlite" and not in_memory(url):
        return url.database
    return url.render_as_string(hide_password=True)


def in_memory(url: URL) -> bool:
    """Whether ``url`` is an in-memory SQLite database (no file: no pool of its own, no writer queue)."""
    return not url.database or url.database == ":memory:"


def make_engine(url: str | URL, *, foreign_keys: bool = True, reads_in_transaction: bool = True,
                pool_size: int = POOL_SIZE, **kwargs) -> Engine:
    """An engine for ``url`` with the pool and ``BEGIN`` above; ``reads_in_transaction=False`` (the app's)
    runs PostgreSQL reads without a transaction."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", column_json)
    if "poolclass" not in kwargs and not in_memory(url):
        kwargs.update(pool_size=pool_size, max_overflow=0)
    if url.get_backend_name() != "sqlite":
        if not reads_in_transaction:
            kwargs["isolation_level"] = "AUTOCOMMIT"
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _listen_for_goodbye)
        event.listen(engine, "checkout", _replace_if_closed_by_server)
        return engine
    # pysqlite's timeout is SQLite's busy timeout (no SQL string to build)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _configure_sqlite(engine, foreign_keys)
    return engine


SERVER_SAID_GOODBYE = "taizhang.server_said_goodbye"
ENDED_BY_SERVER = "57P"  # admin_shutdown, crash_shutdown, cannot_connect_now, database_dropped, idle timeout


def _listen_for_goodbye(dbapi_connection, record) -> None:
    """Pool ``connect``: note when the server says it is ending this connection (a FATAL error, or a WARNING of
    class 57P that libpq hands to the notice handlers on an idle connection)."""
    def on_notice(diagnostic) -> None:
        if diagnostic.severity_nonlocalized == "FATAL" or (diagnostic.sqlstate or "").startswith(ENDED_BY_SERVER):
            record.info[SERVER_SAID_GOODBYE] = True

    dbapi_connection.add_notice_handler(on_notice)


def _replace_if_closed_by_server(dbapi_connection, record, _proxy) -> None:
    """Pool ``checkout``: a connection the server has ended is replaced, found without a round trip.

    libpq reads what has arrived (``PQconsumeInput`` does not wait); a goodbye or a closed socket makes the
    pool retry with a new one. ``pool_pre_ping`` would spend a query on every request."""
    import psycopg  # imported once gevent has patched the worker (api.gunicorn_config)

    pgconn = dbapi_connection.pgconn
    try:
        pgconn.consume_input()
        pgconn.is_busy()
    except psycopg.OperationalError as error:
        raise exc.DisconnectionError(str(error)) from error
    if record.info.get(SERVER_SAID_GOODBYE):
        raise exc.DisconnectionError("the server ended the connection")


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
        options = connection.get_execution_options()
        if options.get(ONE_READ, False):
            return
        if not options.get(WRITE, False):
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

    In SQLite's busy handler a freed lock goes to whoever polls first, and under a burst (400 tables
    opening, every phone's outbox when the Wi-Fi returns) some writer lost for the whole timeout: a 500
    (``benchmarks/club_night.py --tables 400``). Writers queue on ``flock`` of a file beside the database,
    which the kernel hands to the next waiter (and frees if its process dies), and within a process on a
    lock first, so one thread per process waits in ``flock``."""

    def __init__(self, lock_path: str):
        self.lock_path = lock_path
        self.in_process = threading.Lock()

    @classmethod
    def beside(cls, url: URL) -> "WriterQueue | None":
        """The queue of a SQLite database file (none for an in-memory database)."""
        if in_memory(url):
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
        """End the transaction on the driver, then let the next writer in: SQLAlchemy fires ``commit`` before it
        commits, and a writer let in there would find SQLite's lock still held (the fsync) and sleep."""
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

    SQLite holds the writer queue's turn from before it connects (setting WAL needs the file to itself);
    PostgreSQL serialises upgrades with an advisory lock. A database already at head is told so by one
    read, without importing Alembic: a worker starts faster."""
    engine = make_engine(url, foreign_keys=False, poolclass=pool.NullPool)
    try:
        if _revision(engine) == newest_revision():
            return
        from alembic import command
        from alembic.config import Config

        queue = WriterQueue.beside(engine.url) if engine.dialect.name == "sqlite" else None
        config = Config()
        config.set_main_option("script_location", MIGRATIONS)
        with queue.whole_turn() if queue else contextlib.nullcontext():
            with engine.connect() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
    finally:
        engine.dispose()


def newest_revision() -> str:
    """The newest migration's revision: every migration is ``ledger/migrations/versions/NNNN_what.py`` with
    revision ``"NNNN"`` (``tests/ledger/test_migrations.py`` checks that this is Alembic's head)."""
    versions = files("ledger") / "migrations" / "versions"
    return max(entry.name[:4] for entry in versions.iterdir() if entry.name[:4].isdigit() and entry.name.endswith(".py"))


def _revision(engine: Engine) -> str | None:
    """The database's Alembic revision; None for one not migrated yet (no ``alembic_version`` table)."""
    try:
        with engine.connect() as connection:
            return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except exc.DBAPIError:
        return None


def init_app(app) -> None:
    """Upgrade the app's database, then give the app its engine and per-request sessions."""
    url = app.config["DATABASE_URL"]
    upgrade_database(url)
    use_database(app, url)
    app.teardown_appcontext(_close_session)


def use_database(app, url: str | URL) -> Engine:
    """Give ``app`` a new engine on ``url``, an upgraded database (the tests move one app from database to database)."""
    pool_size = app.config.get("DATABASE_POOL_SIZE", POOL_SIZE)
    app.config["DATABASE_URL"] = url
    app.extensions[ENGINE_KEY] = engine = make_engine(url, reads_in_transaction=False, pool_size=pool_size)
    app.extensions[ONE_READ_KEY] = engine.execution_options(**{ONE_READ: True})
    event.listen(engine, "before_cursor_execute", refuse_writes_outside_begin_write)
    return engine


def get_engine(app=None) -> Engine:
    """The engine of ``app`` (default: the current app)."""
    return (app or current_app).extensions[ENGINE_KEY]


def read_one(statement, parameters: dict):
    """The first row of ``statement``, read on a pooled connection of its own: outside the request's session and,
    on SQLite, its snapshot (no ``BEGIN``). What every request on an evening asks first, its token check, costs
    one statement (``benchmarks/state_read.py``); what the route reads next may be newer."""
    with current_app.extensions[ONE_READ_KEY].connect() as connection:
        return connection.execute(statement, parameters).first()


def get_db() -> Session:
    """The request's SQLModel session, opened on first use; ``expire_on_commit=False``, as the answer is built
    from what was just written."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    return g.db_session


def begin_write(db: Session) -> None:
    """Begin ``db``'s transaction as a write (SQLite: ``BEGIN IMMEDIATE``), before its first statement: a read
    transaction could not take the lock later without risking a deadlock, so that is refused."""
    if db.in_transaction():
        raise RuntimeError("begin_write: this session's transaction has already begun")
    options = {WRITE: True}
    if db.get_bind().dialect.name != "sqlite":
        options["isolation_level"] = "READ COMMITTED"  # a transaction, where reads have none
    db.connection(execution_options=options)


#: Rows of a long write (an import) inserted by one flush. On PostgreSQL a flush's wait for the server is where
#: the worker's loop serves its other greenlets, and the flush's Python work before it is not: a whole piece's
#: flush held an honest hand at almost every one of its waits (``benchmarks/abuse.py`` "group-import"). SQLite's
#: calls block the loop anyway; there a piece is still one transaction, its flushes only smaller.
FLUSH_ROWS = 25


def add_flushed(db: Session, rows: list) -> None:
    """Add ``rows`` to a write, flushing every ``FLUSH_ROWS``; on PostgreSQL giving way to short requests between
    flushes (``api.http.offload.give_way``)."""
    postgresql = db.get_bind().dialect.name != "sqlite"
    for start in range(0, len(rows), FLUSH_ROWS):
        if start and postgresql:
            give_way()
        db.add_all(rows[start:start + FLUSH_ROWS])
        db.flush()


def next_piece(db: Session) -> None:
    """Commit what a long write (an import) has written so far, let the loop's other greenlets run, and begin
    the next piece: on SQLite the write lock is held for one piece at a time (``api.sessions.documents``)."""
    db.commit()
    pause()
    begin_write(db)


def refuse_writes_outside_begin_write(connection, _cursor, statement, _parameters, context, _executemany) -> None:
    """``before_cursor_execute``: a change without ``begin_write`` fails (PostgreSQL would autocommit each
    statement; SQLite would take the write lock halfway through a read)."""
    if context is not None and (context.isinsert or context.isupdate or context.isdelete) \
            and not connection.get_execution_options().get(WRITE, False):
        raise RuntimeError(f"a change outside begin_write: {statement[:80]}")


def _close_session(_exception=None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def dispose(app) -> None:
    """Close every pooled connection of ``app`` (before dropping its database)."""
    get_engine(app).dispose()
