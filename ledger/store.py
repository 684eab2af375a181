"""Persistent tables (SQLModel) of the ledger and the few queries the API needs.

Alembic migrations (``ledger/migrations``) create and upgrade these tables;
``metadata`` is what they are compared with.

- ``SessionRow`` (牌局, table ``sessions``): one table's evening. The id is an
  unguessable token; only the SHA-256 of the bearer token is kept. ``players``
  are the four who sat down first, in turn order; ``stakes`` and ``options``
  as agreed (options with the rule set's defaults filled in). ``state`` and
  ``totals`` cache the result of replaying every entry, so reading a session
  never replays; ``entry_count`` and ``hand_count`` hand out the next
  position and hand number while the session row is locked. ``revision``
  goes up with every change to the row: a hand worked out from one revision
  is written only if the session is still at it (``Draft``).
- ``EntryRow`` (記錄, table ``entries``): one event of the evening, in
  ``position`` order: a hand (``kind == "hand"``, with its consecutive
  ``number``) or a seat change (``kind == "seat"``, 替補, no number). ``body``
  is the request exactly as entered; ``result`` what the replay derived from
  it (payments, scores, the state before and after); a voided hand (作廢)
  keeps its row with ``void`` set. ``idempotency_key`` / ``request_hash`` /
  ``response`` let a retried POST return its first response; ``client`` is
  the label of whoever entered it.
- ``AuditRow`` (稽核, table ``audits``): every void, correction and restore of
  a hand: who, when, the body before and after.

The replay that fills ``result``, ``state`` and ``totals`` lives in
``ledger.recorder``; the API's ``api.recording`` ties both together.
"""
from __future__ import annotations

import datetime
from typing import Any, NamedTuple

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, String, UniqueConstraint, bindparam
from sqlalchemy import cast, exists, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy import select as core_select
from sqlmodel import Field, Session, SQLModel, select

metadata = SQLModel.metadata

HAND = "hand"
SEAT = "seat"
UNKNOWN_CLIENT = "unknown"
CLIENT_LENGTH = 100
KEY_LENGTH = 200


def utc_now() -> datetime.datetime:
    """The current time in UTC (timestamps are stored in UTC)."""
    return datetime.datetime.now(datetime.timezone.utc)


def _json(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(JSON(none_as_null=nullable), nullable=nullable))


def _timestamp() -> Any:
    return Field(default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False))


#: Bumped by every change to a session (the ORM does it for ``SessionRow``: ``version_id_col``).
_REVISION = Column("revision", Integer, nullable=False, server_default="0")


class SessionRow(SQLModel, table=True):
    """One session (牌局): one table, one evening."""

    __tablename__ = "sessions"
    __mapper_args__ = {"version_id_col": _REVISION}

    id: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=200)
    ruleset: str = Field(max_length=20)
    players: list = _json()
    stakes: dict = _json()
    options: dict = _json()
    token_hash: str = Field(max_length=64)
    state: dict = _json()
    totals: dict = _json()
    entry_count: int = 0
    hand_count: int = 0
    revision: int = Field(default=0, sa_column=_REVISION)
    created_at: datetime.datetime = _timestamp()
    updated_at: datetime.datetime = _timestamp()


class EntryRow(SQLModel, table=True):
    """One hand or seat change of a session, in recording order."""

    __tablename__ = "entries"
    __table_args__ = (
        UniqueConstraint("session_id", "position", name="uq_entries_session_position"),
        UniqueConstraint("session_id", "number", name="uq_entries_session_number"),
        UniqueConstraint("session_id", "idempotency_key", name="uq_entries_session_idempotency_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             nullable=False))
    position: int
    kind: str = Field(max_length=10)
    number: int | None = None
    body: dict = _json()
    void: bool = False
    result: dict = _json()
    idempotency_key: str | None = Field(default=None, max_length=KEY_LENGTH)
    request_hash: str | None = Field(default=None, max_length=64)
    response: dict | None = _json(nullable=True)
    client: str = Field(default=UNKNOWN_CLIENT, max_length=CLIENT_LENGTH,
                        sa_column_kwargs={"server_default": UNKNOWN_CLIENT})
    created_at: datetime.datetime = _timestamp()
    updated_at: datetime.datetime = _timestamp()


class AuditRow(SQLModel, table=True):
    """One change to a recorded hand (void 作廢, correct 更正, restore 恢復)."""

    __tablename__ = "audits"

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             nullable=False, index=True))
    entry_id: int = Field(sa_column=Column(Integer, ForeignKey("entries.id", ondelete="CASCADE"),
                                           nullable=False))
    number: int
    action: str = Field(max_length=10)
    who: str = Field(max_length=CLIENT_LENGTH)
    at: datetime.datetime = _timestamp()
    before: dict = _json()
    after: dict | None = _json(nullable=True)


class SessionRecord(NamedTuple):
    """A session with every entry (voided ones included) and its audit trail, in order."""

    session: SessionRow
    entries: list[EntryRow]
    audits: list[AuditRow]

    @property
    def hands(self) -> list[EntryRow]:
        """The hand entries (voided ones included), by number."""
        return [entry for entry in self.entries if entry.kind == HAND]

    @property
    def seat_changes(self) -> list[EntryRow]:
        """The seat changes (替補), in recording order."""
        return [entry for entry in self.entries if entry.kind == SEAT]


class KeyedEntry(NamedTuple):
    """What a retry needs of the entry recorded under an ``Idempotency-Key``."""

    kind: str
    number: int | None
    request_hash: str | None
    response: dict | None


class SessionHead(NamedTuple):
    """A session as a change to it needs it (no ORM object), read holding its lock."""

    id: str
    ruleset: str
    players: list
    stakes: dict
    options: dict
    token_hash: str
    state: dict
    totals: dict
    entry_count: int
    hand_count: int
    revision: int


# -- queries ------------------------------------------------------------------


class Prepared:
    """A Core statement compiled once per dialect and run on the DBAPI cursor itself.

    Appending a hand runs the same few statements every time. Through
    ``Connection.execute`` each costs 25–50 µs of SQLAlchemy (execution
    context, result object, events) against ≈ 3 µs on the cursor, and on
    SQLite all of it is spent holding the one writer lock. The statement is
    still built by SQLAlchemy (no SQL text here) and every value goes
    through its column type's own bind and result processors, so JSON and
    timestamps are written and read exactly as ``Connection.execute`` does.
    """

    def __init__(self, statement, column_keys: list[str] | None = None):
        self.statement = statement
        self.column_keys = column_keys
        self._by_dialect: dict[str, tuple] = {}

    def bind(self, dialect, params: dict) -> list | dict:
        """``params`` as the driver takes them for this statement: each through its column's bind processor.

        Binding can be done ahead of the transaction (``Draft``): JSON is
        encoded there, not while holding a lock.
        """
        sql, names, processors, positional, _ = self._by_dialect.get(dialect.name) or self._compile(dialect)
        values = [params[name] if processor is None else processor(params[name])
                  for name, processor in zip(names, processors)]
        return values if positional else dict(zip(names, values))

    def execute(self, connection: Connection, params: dict):
        """Run the statement in ``connection``'s transaction; its DBAPI cursor, to read and close."""
        return self.run(connection, self.bind(connection.dialect, params))

    def run(self, connection: Connection, bound: list | dict):
        """Run the statement with values already bound (``bind``, same dialect); its DBAPI cursor."""
        cursor = connection.connection.cursor()
        cursor.execute(self._by_dialect[connection.dialect.name][0], bound)
        return cursor

    def first(self, connection: Connection, params: dict) -> tuple | None:
        """The first row of a SELECT, its values converted as SQLAlchemy would, or None."""
        cursor = self.execute(connection, params)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        if row is None:
            return None
        processors = self._by_dialect[connection.dialect.name][4]
        return tuple(value if processor is None else processor(value) for value, processor in zip(row, processors))

    def count(self, connection: Connection, params: dict) -> int:
        """Run an INSERT or UPDATE; the number of rows it changed."""
        return self.count_bound(connection, self.bind(connection.dialect, params))

    def count_bound(self, connection: Connection, bound: list | dict) -> int:
        """``count`` with values already bound (``bind``)."""
        cursor = self.run(connection, bound)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def _compile(self, dialect) -> tuple:
        compiled = self.statement.compile(dialect=dialect, column_keys=self.column_keys)
        positional = compiled.positiontup is not None
        names = list(compiled.positiontup if positional else compiled.binds)
        processors = [compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names]
        columns = getattr(self.statement, "selected_columns", ())
        results = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns]
        self._by_dialect[dialect.name] = (compiled.string, names, processors, positional, results)
        return self._by_dialect[dialect.name]


_SESSIONS = SessionRow.__table__
_ENTRIES = EntryRow.__table__
_HEAD = [_SESSIONS.c[name] for name in SessionHead._fields]
_KEYED = [_ENTRIES.c[name] for name in KeyedEntry._fields]
_ENTRY_VALUES = [column.name for column in _ENTRIES.columns if column.name != "id"]
_SESSION_CHANGES = ["entry_count", "hand_count", "revision", "state", "totals", "updated_at"]
_ONE_PER_KEY = ["session_id", "idempotency_key"]  # the columns of uq_entries_session_idempotency_key
# Built once (building a statement costs more than running it).
_TOKEN_HASH = core_select(_SESSIONS.c.token_hash).where(_SESSIONS.c.id == bindparam("session_id"))
_READ_HEAD = Prepared(core_select(*_HEAD).where(_SESSIONS.c.id == bindparam("session_id")))
_LOCK_HEAD = Prepared(_READ_HEAD.statement.with_for_update())
_KEYED_ENTRY = Prepared(core_select(*_KEYED).where(_ENTRIES.c.session_id == bindparam("session_id"),
                                                   _ENTRIES.c.idempotency_key == bindparam("key")))
# SQLite: the INSERT, then the UPDATE if the INSERT did insert (no server: two statements cost nothing more).
_INSERT_ENTRY = Prepared(sqlite.insert(_ENTRIES).on_conflict_do_nothing(index_elements=_ONE_PER_KEY),
                         _ENTRY_VALUES)
_UPDATE_SESSION = Prepared(update(_SESSIONS).where(_SESSIONS.c.id == bindparam("session_id")),
                           _SESSION_CHANGES)
# SQLite, a draft: the INSERT only if the session is still at the draft's revision (the writer lock is held).
_INSERT_DRAFTED_ENTRY = Prepared(
    sqlite.insert(_ENTRIES)
    .from_select(_ENTRY_VALUES, core_select(*(bindparam(name, type_=_ENTRIES.c[name].type) for name in _ENTRY_VALUES))
                 .where(exists().where(_SESSIONS.c.id == bindparam("session_id"),
                                       _SESSIONS.c.revision == bindparam("drafted_at"))))
    .on_conflict_do_nothing(index_elements=_ONE_PER_KEY))
# PostgreSQL: both in one statement, one round trip; the UPDATE finds its row only if the INSERT did insert.
_NEW_ENTRY = (postgresql.insert(_ENTRIES).values({name: bindparam(name) for name in _ENTRY_VALUES})
              .on_conflict_do_nothing(index_elements=_ONE_PER_KEY).returning(_ENTRIES.c.id).cte("new_entry"))
_INSERT_ENTRY_UPDATE_SESSION = Prepared(
    update(_SESSIONS).where(_SESSIONS.c.id == bindparam("session_id"), exists(_NEW_ENTRY.select()))
    .values({name: bindparam(name) for name in _SESSION_CHANGES}).add_cte(_NEW_ENTRY))
# PostgreSQL, a draft: the same, if the session is still at the draft's revision, as one statement that
# needs no transaction around it. The CTE locks the row; a writer that got there first has moved the
# revision on, so the re-checked row no longer matches and nothing is inserted.
_AT_REVISION = (core_select(_SESSIONS.c.id)
                .where(_SESSIONS.c.id == bindparam("session_id"), _SESSIONS.c.revision == bindparam("drafted_at"))
                .with_for_update().cte("at_revision"))
_DRAFTED_ENTRY = (postgresql.insert(_ENTRIES)
                  .from_select(_ENTRY_VALUES, core_select(*(cast(bindparam(name, type_=_ENTRIES.c[name].type),
                                                                 _ENTRIES.c[name].type)
                                                            for name in _ENTRY_VALUES)).select_from(_AT_REVISION))
                  .on_conflict_do_nothing(index_elements=_ONE_PER_KEY).returning(_ENTRIES.c.id).cte("drafted_entry"))
_WRITE_DRAFT = Prepared(
    update(_SESSIONS).where(_SESSIONS.c.id == bindparam("session_id"), exists(_DRAFTED_ENTRY.select()))
    .values({name: bindparam(name) for name in _SESSION_CHANGES}).add_cte(_AT_REVISION).add_cte(_DRAFTED_ENTRY))


def find_session(db: Session, session_id: str) -> SessionRow | None:
    """The session ``session_id``, or None (a change takes its lock first: ``lock_session``)."""
    return db.exec(select(SessionRow).where(SessionRow.id == session_id)).first()


def find_token_hash(connection: Connection, session_id: str) -> str | None:
    """The SHA-256 of session ``session_id``'s token (it never changes), or None for no such session."""
    return connection.execute(_TOKEN_HASH, {"session_id": session_id}).scalar()


def lock_session(connection: Connection, session_id: str) -> SessionHead | None:
    """The session ``session_id`` holding its row lock (SELECT ... FOR UPDATE), or None.

    Every change to a session's entries is made holding this lock, so hand
    numbers and positions are handed out one request at a time; on SQLite
    the write lock taken by ``BEGIN IMMEDIATE`` (``api.db``) does the same.
    """
    row = _LOCK_HEAD.first(connection, {"session_id": session_id})
    return None if row is None else SessionHead(*row)


def read_head(connection: Connection, session_id: str) -> SessionHead | None:
    """The session as last committed, without its lock, or None. What ``draft_append`` starts from.

    Run outside a transaction (``api.db.write``'s ``draft``), it takes no lock at all.
    """
    row = _READ_HEAD.first(connection, {"session_id": session_id})
    return None if row is None else SessionHead(*row)


class Draft(NamedTuple):
    """An entry to append, worked out from the session at some revision, its statements' values bound.

    ``write_draft`` writes it only if the session is still at that revision
    (bound in ``values``, which the statements check themselves): then the
    entry is what would have been worked out holding the session's lock,
    since its position, number, state and totals all come from the session's
    row. So the recorder and the JSON encoding run before the lock: on SQLite
    the one writer lock is held for less; on PostgreSQL the draft is written
    by one statement, with no transaction around it (``api.db.write``).
    """

    values: tuple  # what ``write_draft`` runs, bound for one dialect


def draft_append(connection: Connection, head: SessionHead, entry: dict, session_changes: dict) -> Draft:
    """A ``Draft`` of ``append_entry(entry, head.id, session_changes)``, worked out from ``head``."""
    dialect = connection.dialect
    if dialect.name == "postgresql":
        values = (_WRITE_DRAFT.bind(dialect, {**entry, **session_changes, "session_id": head.id,
                                              "drafted_at": head.revision}),)
    else:
        values = (_INSERT_DRAFTED_ENTRY.bind(dialect, {**entry, "drafted_at": head.revision}),
                  _UPDATE_SESSION.bind(dialect, {"session_id": head.id, **session_changes}))
    return Draft(values)


def write_draft(connection: Connection, draft: Draft) -> bool:
    """Write ``draft`` if its session is still at its revision, as ``append_entry`` would; whether it did.

    False means: work the entry out again holding the lock. That is also the
    answer when the ``Idempotency-Key`` is taken (the statement that checks
    the revision cannot tell the two apart); the locked path then finds the
    first response. On SQLite, run it holding the writer lock.
    """
    if connection.dialect.name == "postgresql":
        return _WRITE_DRAFT.count_bound(connection, draft.values[0]) == 1
    entry, changes = draft.values
    if _INSERT_DRAFTED_ENTRY.count_bound(connection, entry) == 0:
        return False
    _UPDATE_SESSION.count_bound(connection, changes)
    return True


def find_keyed_entry(connection: Connection, session_id: str, key: str) -> KeyedEntry | None:
    """The entry recorded under ``Idempotency-Key`` ``key`` in the session, if any.

    Read holding the session's lock, by a statement of its own: under READ
    COMMITTED a statement that waited for the lock re-reads the locked row
    only, so a join with the lock's SELECT would miss an entry its holder
    had just inserted.
    """
    row = _KEYED_ENTRY.first(connection, {"session_id": session_id, "key": key})
    return None if row is None else KeyedEntry(*row)


def append_entry(connection: Connection, entry: dict, session_id: str, session_changes: dict) -> bool:
    """Insert one entry (``entry``: every column but ``id``) and update its session's counters, state, totals.

    ``session_changes`` holds the session's new ``revision`` too.

    Unless the entry's ``idempotency_key`` is already taken in the session:
    then nothing changes and the answer is False (the request is a retry,
    ``find_keyed_entry`` has the first one). Checking the key with the INSERT
    itself saves a statement, and a round trip to PostgreSQL, on every hand.
    """
    return _write_append(connection, _bind_append(connection.dialect, entry, session_id, session_changes))


def _bind_append(dialect, entry: dict, session_id: str, session_changes: dict) -> tuple:
    changes = {"session_id": session_id, **session_changes}
    if dialect.name == "postgresql":  # one statement: the entry takes the session's updated_at
        return (_INSERT_ENTRY_UPDATE_SESSION.bind(dialect, {**entry, **changes}),)
    return _INSERT_ENTRY.bind(dialect, entry), _UPDATE_SESSION.bind(dialect, changes)


def _write_append(connection: Connection, values: tuple) -> bool:
    if connection.dialect.name == "postgresql":
        return _INSERT_ENTRY_UPDATE_SESSION.count_bound(connection, values[0]) == 1
    entry, changes = values
    if _INSERT_ENTRY.count_bound(connection, entry) == 0:
        return False
    _UPDATE_SESSION.count_bound(connection, changes)
    return True


def list_entries(db: Session, session_id: str, kind: str | None = None) -> list[EntryRow]:
    """The session's entries by position: all of them, or only ``kind`` (``HAND`` or ``SEAT``).

    Voided hands are included (``void`` is set on them).
    """
    query = select(EntryRow).where(EntryRow.session_id == session_id)
    if kind is not None:
        query = query.where(EntryRow.kind == kind)
    return list(db.exec(query.order_by(EntryRow.position)))


def find_hand(db: Session, session_id: str, number: int) -> EntryRow | None:
    """Hand ``number`` of the session, voided or not, or None."""
    query = select(EntryRow).where(EntryRow.session_id == session_id, EntryRow.number == number)
    return db.exec(query).first()


def list_audits(db: Session, session_id: str) -> list[AuditRow]:
    """The session's audit trail, oldest first."""
    query = select(AuditRow).where(AuditRow.session_id == session_id).order_by(AuditRow.id)
    return list(db.exec(query))


def load_session(db: Session, session_id: str) -> SessionRecord | None:
    """The session with its entries and audit trail (for reports), or None if unknown."""
    session = find_session(db, session_id)
    if session is None:
        return None
    return SessionRecord(session, list_entries(db, session_id), list_audits(db, session_id))
