"""The database: one engine per app, one SQLModel session per request, migrations on start.

SQLite connections run in WAL mode with foreign keys enforced and a busy timeout,
and every transaction starts with ``BEGIN IMMEDIATE`` (SQLAlchemy's pysqlite
recipe): a writer takes the write lock up front, so two requests can never
deadlock upgrading a read lock, they queue instead. They queue on an OS lock
(``flock`` on ``<database>.writer-lock``) taken just before: SQLite's busy
timeout makes a waiter sleep and poll (1, 2, 5, 10 … 100 ms), so under load a
freed database sat idle while waiters slept (p99 of recording a hand with 4
clients: ~350 ms), whereas ``flock`` wakes the next waiter at once, across
threads and gunicorn processes alike (locks of separate opens conflict), and
the kernel frees it if the process dies. PostgreSQL needs none of this; a
pooled PostgreSQL connection that the server closed (a restart) is replaced
when it is checked out (``_replace_if_closed_by_server``).

``write(work)`` runs a change outside the ORM (``work`` gets a Core connection
inside a transaction) and returns its result once committed. On a SQLite file
the writes of concurrent requests share transactions (``GroupCommit``): one
COMMIT, one fsync of the WAL, for several hands. ``write`` can also take a
draft of the change, worked out from the last committed state taking no lock
(``store.Draft``): on SQLite outside the one writer lock, on PostgreSQL so
that the write is one statement (``RowLocks``).
"""
import fcntl
import json
import select
import threading
from collections.abc import Callable
from typing import TypeVar

import orjson
from alembic import command
from alembic.config import Config
from flask import current_app, g
from sqlalchemy import create_engine, event, exc, pool
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlmodel import Session

ENGINE_KEY = "taizhang.engine"
BUSY_TIMEOUT_MS = 5000
MIGRATIONS = "ledger:migrations"
WRITER_LOCK = "taizhang.writer_lock"
WRITER_LOCK_SUFFIX = ".writer-lock"
WRITES_KEY = "taizhang.writes"
SAVEPOINT = "SAVEPOINT batched_write"
ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO SAVEPOINT batched_write"
RELEASE_SAVEPOINT = "RELEASE SAVEPOINT batched_write"

T = TypeVar("T")


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


# What ``json.dumps`` writes as it is: keys that are not strings become strings the same way; dates and
# dataclasses, which ``json.dumps`` refuses, go to it to be refused as before.
COLUMN_ORJSON = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
INT64 = range(-2**63, 2**64)  # what orjson writes and reads back as integers


def column_json(value) -> str:
    """The text of a JSON column: written by orjson, else by ``json.dumps``.

    Every JSON column (a session's state, totals and options, each hand's
    body and stored answer) is written and read at least once a hand, and
    ``json`` took 12 % of the instructions of recording one (callgrind);
    orjson writes and reads the same values ~10 times faster. What orjson
    refuses goes to ``json.dumps``: text with a lone surrogate (a player's
    name sent as ``"\\ud800"``), which it writes escaped, and whatever
    ``json.dumps`` refuses too. Two things differ and neither can be stored:
    orjson writes NaN as null (no number outside a bounded integer passes the
    schemas), and it reads integers past 64 bits as floats, so those are
    refused here rather than written (stakes and 台 are bounded far below).
    """
    try:
        return orjson.dumps(value, option=COLUMN_ORJSON).decode()
    except orjson.JSONEncodeError:
        _refuse_wide_integers(value)
        return json.dumps(value)


def column_value(text: str | bytes):
    """The value of a JSON column's text: read by orjson, else by ``json.loads`` (escaped surrogates)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _refuse_wide_integers(value) -> None:
    if type(value) is int and value not in INT64:
        raise ValueError(f"a JSON column cannot hold the integer {value}: it needs more than 64 bits")
    if isinstance(value, dict):
        for item in value.values():
            _refuse_wide_integers(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _refuse_wide_integers(item)


def make_engine(url: str | URL, *, foreign_keys: bool = True, **kwargs) -> Engine:
    """An engine for ``url``; on SQLite with the pragmas and locking described above."""
    url = database_url(url)
    kwargs.setdefault("json_serializer", column_json)
    kwargs.setdefault("json_deserializer", column_value)
    if url.get_backend_name() != "sqlite":
        engine = create_engine(url, **kwargs)
        event.listen(engine, "checkout", _replace_if_closed_by_server)
        return engine
    # pysqlite's timeout is SQLite's busy timeout (no SQL string to build)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _configure_sqlite(engine, foreign_keys)
    return engine


def _replace_if_closed_by_server(dbapi_connection, _record, _proxy) -> None:
    """Hand out a pooled PostgreSQL connection only if the server has not closed it.

    An idle connection has nothing to read: the server writes only to answer,
    except when it ends the session (a restart, ``pg_terminate_backend``):
    then it sends a last error and closes. So a readable socket means a
    closed session, found without the round trip of ``pool_pre_ping``, one
    in five of recording a hand. SQLAlchemy then discards the connection and
    checks out another, a new one if need be (``DisconnectionError``).
    """
    if dbapi_connection.closed or select.select([dbapi_connection.fileno()], [], [], 0)[0]:
        raise exc.DisconnectionError("The server closed this pooled connection.")


def _configure_sqlite(engine: Engine, foreign_keys: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # pysqlite must not emit BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON" if foreign_keys else "PRAGMA foreign_keys = OFF")
        cursor.close()

    lock_path = _writer_lock_path(engine.url)

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        if lock_path:
            _take_writer_lock(connection, lock_path)
        # On the DBAPI connection: through exec_driver_sql it cost ≈ 30 µs of SQLAlchemy, holding the lock.
        connection.connection.driver_connection.execute("BEGIN IMMEDIATE").close()

    if lock_path:
        event.listen(engine, "commit", _commit_then_release_writer_lock)
        event.listen(engine, "rollback", _roll_back_then_release_writer_lock)
        event.listen(engine.pool, "reset", lambda _dbapi, record, _state: _release_writer_lock(record))


def _writer_lock_path(url: URL) -> str | None:
    """The lock file beside a SQLite database file (none for an in-memory database)."""
    if not url.database or url.database == ":memory:":
        return None
    return url.database + WRITER_LOCK_SUFFIX


def _take_writer_lock(connection, lock_path: str) -> None:
    """Queue on the writer lock; each pooled connection opens the lock file once and keeps it."""
    lock = connection.info.get(WRITER_LOCK)
    if lock is None:
        lock = connection.info[WRITER_LOCK] = open(lock_path, "a+b")
    fcntl.flock(lock, fcntl.LOCK_EX)


def _commit_then_release_writer_lock(connection) -> None:
    """Commit, then free the writer lock (see ``_end_then_release_writer_lock``)."""
    _end_then_release_writer_lock(connection, "commit")


def _roll_back_then_release_writer_lock(connection) -> None:
    """Roll back, then free the writer lock (see ``_end_then_release_writer_lock``)."""
    _end_then_release_writer_lock(connection, "rollback")


def _end_then_release_writer_lock(connection, end: str) -> None:
    """End the transaction (``commit`` or ``rollback``), then free the writer lock.

    SQLAlchemy fires its ``commit`` and ``rollback`` events *before* it ends
    the transaction. Freed there, the lock went to the next writer while
    SQLite still held its own (during a commit's fsync, say), so that
    writer's ``BEGIN IMMEDIATE`` found the database locked and slept in
    SQLite's busy handler (1 ms, then 2, 5 …). pysqlite's own ``commit()`` or
    ``rollback()``, which SQLAlchemy calls next, then finds no transaction
    open and does nothing.
    """
    try:
        getattr(connection.connection.driver_connection, end)()
    finally:
        _release_writer_lock(connection)


def _release_writer_lock(connection) -> None:
    """Free the writer lock, if this connection (or pool record) holds one."""
    lock = connection.info.get(WRITER_LOCK)
    if lock is not None:
        fcntl.flock(lock, fcntl.LOCK_UN)


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


Draft = TypeVar("Draft")


class Transactions:
    """Each write in a transaction of its own (an in-memory SQLite database, say)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def run(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a new transaction and commit; its result, or its exception (nothing kept)."""
        with self.engine.begin() as connection:
            return work(connection)

    def dispose(self) -> None:
        """Close the connections of its own (the app's engine is disposed of by ``dispose``)."""

    def write(self, work: Callable[[Connection], T], draft: Callable[[Connection], Draft | None] | None = None,
              write_draft: Callable[[Connection, Draft], T | None] | None = None) -> T:
        """``run(work)``: drafts are not worth it here (see ``api.db.write``)."""
        return self.run(work)


class RowLocks(Transactions):
    """PostgreSQL: row locks let sessions write in parallel; a draft is written by one statement, alone.

    A hand drafted from the last committed state (``store.Draft``) goes in
    as one statement that checks the session's revision itself, so it needs
    no transaction around it: read and write are two statements in
    autocommit, on one connection of a pool of autocommit connections
    (``autocommit``), where a transaction took four round trips (BEGIN,
    SELECT … FOR UPDATE, INSERT + UPDATE, COMMIT).
    """

    def __init__(self, engine: Engine, autocommit: Engine):
        super().__init__(engine)
        self.autocommit = autocommit

    def dispose(self) -> None:
        self.autocommit.dispose()

    def write(self, work: Callable[[Connection], T], draft: Callable[[Connection], Draft | None] | None = None,
              write_draft: Callable[[Connection, Draft], T | None] | None = None) -> T:
        """Draft and write the draft in autocommit, on one connection; if that answers None, ``work`` in a transaction."""
        if draft is not None:
            with self.autocommit.connect() as connection:
                drafted = draft(connection)
                done = None if drafted is None else write_draft(connection, drafted)
            if done is not None:
                return done
        return self.run(work)


class _Write:
    """One request's write waiting for a batch: its work, then its result or error."""

    __slots__ = ("work", "result", "error", "done")

    def __init__(self, work: Callable[[Connection], object]):
        self.work = work
        self.result = None
        self.error: BaseException | None = None
        self.done = False

    def run_in_savepoint(self, connection: Connection) -> None:
        """Run the work; if it raises, roll back what it did (only it) and keep the error for its request.

        The savepoint is set on the DBAPI cursor: ``Connection.begin_nested``
        costs ≈ 50 µs a write, all of it holding the writer lock.
        """
        cursor = connection.connection.cursor()
        try:
            cursor.execute(SAVEPOINT)
            try:
                self.result = self.work(connection)
            except Exception as error:
                cursor.execute(ROLLBACK_TO_SAVEPOINT)
                self.error = error
            cursor.execute(RELEASE_SAVEPOINT)
        finally:
            cursor.close()


class GroupCommit(Transactions):
    """The writes of concurrent requests in shared transactions: one COMMIT (one fsync) for several (SQLite).

    SQLite has one writer at a time, and ``synchronous = FULL`` makes every
    COMMIT wait for an fsync of the WAL while holding the writer lock; one
    fsync a hand capped the rate of recording. So the requests of a process
    hand their writes to whichever of them leads: the leader takes the writer
    lock (``BEGIN IMMEDIATE``), then every write queued by then, those that
    arrived while it waited for the lock included, and runs each in a
    SAVEPOINT of its own (a write that raises, a 4xx say, rolls back to its
    savepoint: only its request gets the error; a write alone in its batch
    needs none, its error rolls the transaction back), then COMMITs once. No
    request of the batch gets its result before that COMMIT has returned:
    nothing is acknowledged before it is durable, and if the COMMIT fails,
    every write of the batch fails with it. Writes that arrive while a batch
    runs wait for the next one, led by one of them. No thread of its own:
    nothing to start, stop or lose in a fork.
    """

    def __init__(self, engine: Engine):
        super().__init__(engine)
        self._queue: list[_Write] = []
        self._leading = False
        self._changed = threading.Condition()

    def run(self, work: Callable[[Connection], T], connection: Connection | None = None) -> T:
        """Queue ``work``, lead a batch or wait for one; its result once committed, or its exception.

        A leader runs the batch on ``connection`` if given (one with no
        transaction, that the caller closes), else on one of its own. Never
        call it holding a transaction of the same database: the batch would
        wait for that transaction's writer lock.
        """
        write = _Write(work)
        with self._changed:
            self._queue.append(write)
            while self._leading and not write.done:
                self._changed.wait()
            lead = not write.done  # no batch is running and none took this write: lead the next
            if lead:
                self._leading = True
        if lead:
            try:
                if connection is None:
                    with self.engine.connect() as connection:
                        self._commit_batch(connection)
                else:
                    self._commit_batch(connection)
            finally:
                with self._changed:
                    self._leading = False
                    self._changed.notify_all()
        if write.error is not None:
            raise write.error
        return write.result

    def write(self, work: Callable[[Connection], T], draft: Callable[[Connection], Draft | None] | None = None,
              write_draft: Callable[[Connection, Draft], T | None] | None = None) -> T:
        """Draft outside any transaction, then write the draft (or else ``work``) in a batch.

        ``draft`` must run its statements on the DBAPI cursor (``store.Prepared``):
        pysqlite, with no ``BEGIN``, runs each in its own snapshot of the WAL,
        which a writer does not block (a SQLAlchemy ``execute`` would begin a
        transaction, and so queue on the writer lock). So the change is worked
        out outside the lock that serialises every writer, and only checked
        and written holding it. The draft's connection then leads the batch
        if this request does: one pool checkout a hand, not two.
        """
        if draft is None:
            return self.run(work)
        with self.engine.connect() as connection:  # the draft's connection leads the batch, if it does
            drafted = draft(connection)
            if drafted is None:
                return self.run(work, connection)
            return self.run(lambda batch: _first_or(write_draft, drafted, work, batch), connection)

    @property
    def queued(self) -> int:
        """Writes waiting for a batch (that has not taken them yet)."""
        with self._changed:
            return len(self._queue)

    def _commit_batch(self, connection: Connection) -> None:
        batch: list[_Write] = []
        try:
            with connection.begin():
                batch = self._take_queue()
                if len(batch) == 1:  # alone, its error rolls back the whole transaction: no savepoint
                    batch[0].result = batch[0].work(connection)
                else:
                    for write in batch:
                        write.run_in_savepoint(connection)
        except BaseException as error:  # no transaction, or no COMMIT: every write of the batch fails
            batch = batch or self._take_queue()
            for write in batch:
                if write.error is None:
                    write.error = error
        finally:
            with self._changed:
                for write in batch:
                    write.done = True

    def _take_queue(self) -> list[_Write]:
        with self._changed:
            batch, self._queue = self._queue, []
        return batch


def _first_or(write_draft: Callable[[Connection, Draft], T | None], drafted: Draft,
              work: Callable[[Connection], T], connection: Connection) -> T:
    done = write_draft(connection, drafted)
    return work(connection) if done is None else done


def write(work: Callable[[Connection], T], draft: Callable[[Connection], Draft | None] | None = None,
          write_draft: Callable[[Connection, Draft], T | None] | None = None) -> T:
    """Run ``work(connection)`` in a write transaction of the current app's database and commit.

    Returns its result once committed; if it raises, nothing it did is kept
    and the exception is raised here.

    With ``draft``: ``draft(connection)`` first works the change out from the
    last committed state, taking no lock (None: no draft), and
    ``write_draft(connection, drafted)`` writes it if it still holds (None if
    not: then ``work`` runs). On a SQLite file every write queues for the one
    writer lock, and drafting shortens every wait (``GroupCommit``); on
    PostgreSQL the draft is written by one statement without a transaction
    (``RowLocks``), so ``write_draft`` must be a single statement. The
    functions may run in another request's thread (``GroupCommit``): they
    must use only their arguments, not Flask's request or ``g``.
    """
    return current_app.extensions[WRITES_KEY].write(work, draft, write_draft)


def init_app(app) -> None:
    """Upgrade the app's database, then give the app its engine, its writes and per-request sessions."""
    url = app.config["DATABASE_URL"]
    upgrade_database(url)
    engine = make_engine(url)
    app.extensions[ENGINE_KEY] = engine
    grouped = engine.dialect.name == "sqlite" and _writer_lock_path(engine.url) is not None
    if grouped:
        app.extensions[WRITES_KEY] = GroupCommit(engine)
    elif engine.dialect.name == "postgresql":
        app.extensions[WRITES_KEY] = RowLocks(engine, make_engine(url, isolation_level="AUTOCOMMIT"))
    else:
        app.extensions[WRITES_KEY] = Transactions(engine)
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
    app.extensions[WRITES_KEY].dispose()
