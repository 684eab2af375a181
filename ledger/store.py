"""Persistent tables (SQLModel) of the ledger and the few queries the API needs.

Alembic migrations (``ledger/migrations``) create these tables; ``metadata`` is what they are compared
with. A session keeps only the SHA-256 of its bearer token. ``state`` and ``totals`` cache the replay of
every entry (``ledger.recorder``), so reading a session never replays; ``entry_count`` / ``hand_count``
hand out the next position while the row is locked; ``revision`` is the ORM's ``version_id_col``.
An entry's ``body`` is the request exactly as entered, ``result`` what the replay derived; a voided
hand (作廢) keeps its row. ``idempotency_key`` lets a retried POST return its first response.
"""
from __future__ import annotations

import datetime
import json
from typing import Any, NamedTuple

from sqlalchemy import (JSON, Column, DateTime, ForeignKey, Integer, String, UniqueConstraint, bindparam, delete, text,
                        update)
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Field, Session, SQLModel, select

from ledger.entries import HAND, RULES, SEAT

metadata = SQLModel.metadata

UNKNOWN_CLIENT = "unknown"
CLIENT_LENGTH = 100  # the columns' width
CLIENT_KEPT = 64  # what is kept of an X-Client label (API.md: Competitions)
ROLE_LENGTH = 40
KEY_LENGTH = 200


def utc_now() -> datetime.datetime:
    """The current time in UTC (timestamps are stored in UTC)."""
    return datetime.datetime.now(datetime.timezone.utc)


def as_utc(moment: datetime.datetime) -> datetime.datetime:
    """A stored timestamp in UTC: SQLite hands back naive datetimes, which are UTC.

    >>> as_utc(datetime.datetime(2026, 11, 29, 20, 5)).isoformat()
    '2026-11-29T20:05:00+00:00'
    """
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


def json_column(nullable: bool = False) -> Any:
    """A JSON column (``null`` stored as SQL NULL when ``nullable``)."""
    return Field(default=None, sa_column=Column(JSON(none_as_null=nullable), nullable=nullable))


def timestamp_column() -> Any:
    """A time zone aware timestamp column, now by default."""
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
    players: list = json_column()
    stakes: dict = json_column()
    options: dict = json_column()
    house_rules: dict | None = json_column(nullable=True)
    opening_house_rules: dict | None = json_column(nullable=True)
    token_hash: str = Field(max_length=64, index=True)  # indexed: any link found by its token (names_a_link)
    read_token_hash: str | None = Field(default=None, max_length=64, index=True)  # none before 0004
    # A competition's table (0012): its competition, so that reading an evening asks for its round only when it
    # is one (GET /api/sessions/<id> stays one statement for every other evening: tests/api/http/test_app.py)
    competition_id: str | None = Field(default=None, max_length=64)
    closed_at: datetime.datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    state: dict = json_column()
    totals: dict = json_column()
    entry_count: int = 0
    hand_count: int = 0
    revision: int = Field(default=0, sa_column=_REVISION)
    created_at: datetime.datetime = timestamp_column()
    updated_at: datetime.datetime = timestamp_column()


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
    body: dict = json_column()
    void: bool = False
    result: dict = json_column()
    idempotency_key: str | None = Field(default=None, max_length=KEY_LENGTH)
    request_hash: str | None = Field(default=None, max_length=64)
    response: dict | None = json_column(nullable=True)
    client: str = Field(default=UNKNOWN_CLIENT, max_length=CLIENT_LENGTH,
                        sa_column_kwargs={"server_default": UNKNOWN_CLIENT})
    created_at: datetime.datetime = timestamp_column()
    updated_at: datetime.datetime = timestamp_column()


class AuditRow(SQLModel, table=True):
    """One void, correction or restore of a hand, a close or reopen, or a change of the house rules: who,
    when, before and after (a close, a reopen or house rules name no hand)."""

    __tablename__ = "audits"

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             nullable=False, index=True))
    entry_id: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("entries.id", ondelete="CASCADE")))
    number: int | None = None
    action: str = Field(max_length=20)
    who: str = Field(max_length=CLIENT_LENGTH)
    role: str | None = Field(default=None, max_length=ROLE_LENGTH, nullable=True)
    at: datetime.datetime = timestamp_column()
    before: dict | None = json_column(nullable=True)
    after: dict | None = json_column(nullable=True)


class ChangeRow(SQLModel, table=True):
    """One change to a session at the revision it made, written in the change's own transaction, so a session's
    changes are exactly its revisions and a phone that missed some can ask again (API.md: Revisions)."""

    __tablename__ = "changes"
    __table_args__ = (UniqueConstraint("session_id", "revision", name="uq_changes_session_revision"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             nullable=False))
    revision: int
    kind: str = Field(max_length=20)
    entry_id: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("entries.id", ondelete="CASCADE")))
    data: dict = json_column()
    at: datetime.datetime = timestamp_column()


class RetiredTokenRow(SQLModel, table=True):
    """The hash of a token that a session replaced (``POST …/tokens``): it answers 401 "ask for the new link"."""

    __tablename__ = "retired_tokens"

    token_hash: str = Field(primary_key=True, max_length=64)
    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             nullable=False, index=True))
    retired_at: datetime.datetime = timestamp_column()


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

    @property
    def house_rules_changes(self) -> list[EntryRow]:
        """The changes of the house rules from a hand on (voided ones included), in recording order."""
        return [entry for entry in self.entries if entry.kind == RULES]


def opening_rules(session: SessionRow) -> dict:
    """The house rules the evening started with (what a replay starts from); ``{}`` for none."""
    rules = session.opening_house_rules if session.opening_house_rules is not None else session.house_rules
    return rules or {}


# -- queries ------------------------------------------------------------------


def find_session(db: Session, session_id: str) -> SessionRow | None:
    """The session ``session_id``, or None (a change reads it holding its lock: ``group_store.find_session_and_group``)."""
    return db.get(SessionRow, session_id)


def delete_sessions(db: Session, session_ids: list[str]) -> None:
    """Delete sessions with everything recorded in them (their rows' foreign keys cascade)."""
    if session_ids:
        db.execute(delete(SessionRow).where(SessionRow.id.in_(session_ids)))


def ping(db: Session) -> None:
    """Ask the database something (``SELECT 1``): it raises if the database does not answer."""
    db.execute(text("SELECT 1"))


def set_tokens(db: Session, session_id: str, token_hash: str, read_token_hash: str) -> None:
    """The session's tokens become these (hashes): a Core UPDATE, past the ORM's version counter, so that
    the revision stays (new links are not a change to the evening)."""
    db.execute(update(SessionRow).where(SessionRow.id == session_id)
               .values(token_hash=token_hash, read_token_hash=read_token_hash))


def move_sessions(db: Session, sessions: list[SessionRow], **values) -> None:
    """Set ``values`` on locked ``sessions`` and move each revision on in one Core ``UPDATE`` (a round's 250
    tables), not one ORM update per row; the objects get the same values, leaving nothing to flush."""
    if not sessions:
        return
    db.execute(update(SessionRow).where(SessionRow.id.in_([session.id for session in sessions]))
               .values(**values, revision=SessionRow.revision + 1)
               .execution_options(synchronize_session=False))  # the objects are given their values below
    for session in sessions:
        for name, value in {**values, "revision": session.revision + 1}.items():
            set_committed_value(session, name, value)


def session_ids(db: Session) -> list[str]:
    """Every session's id, oldest first."""
    return list(db.exec(select(SessionRow.id).order_by(SessionRow.created_at, SessionRow.id)))


def revisions(connection, session_ids: list[str]) -> dict[str, int]:
    """The revision of each of these sessions (those that still exist), on a Core ``connection``."""
    rows = connection.execute(select(SessionRow.id, SessionRow.revision).where(SessionRow.id.in_(session_ids)))
    return dict(rows.all())


def watched(connection, session_ids: list[str]) -> dict[str, tuple[int, str, str | None]]:
    """(revision, token hash, read token hash) of each of these sessions that still exists, on a Core
    ``connection``: what a process's live-update watcher polls (``api.http.live``)."""
    rows = connection.execute(select(SessionRow.id, SessionRow.revision, SessionRow.token_hash,
                                     SessionRow.read_token_hash).where(SessionRow.id.in_(session_ids)))
    return {row[0]: tuple(row[1:]) for row in rows}


def change_rows_after(connection, session_id: str, revision: int) -> list[tuple[int, str, dict]]:
    """(revision, kind, data) of the session's changes after ``revision``, in order, on a Core ``connection``
    (``changes_after`` without the ORM: the watcher reads each change once for every stream of its process)."""
    table = ChangeRow.__table__
    query = (select(table.c.revision, table.c.kind, table.c.data)
             .where(table.c.session_id == session_id, table.c.revision > revision).order_by(table.c.revision))
    return [tuple(row) for row in connection.execute(query)]


def changes_since(connection, change_id: int | None) -> list[tuple[int, str, int, str, dict]]:
    """Every change written after ``change_id`` (None: only the newest), in order. SQLite only: its writers
    take turns, so ids follow commit order (PostgreSQL notifies instead: ``api.http.live``).

    ``connection`` is a plain ``sqlite3`` connection, asked often by every process
    (``benchmarks/club_night.py --live --floor``)."""
    if change_id is None:
        rows = connection.execute("SELECT id, session_id, revision, kind, data FROM changes "
                                  "ORDER BY id DESC LIMIT 1").fetchall()
    else:
        rows = connection.execute("SELECT id, session_id, revision, kind, data FROM changes WHERE id > ? "
                                  "ORDER BY id", (change_id,)).fetchall()
    return [(row[0], row[1], row[2], row[3], json.loads(row[4])) for row in rows]


def hands_after(db: Session, session_id: str, after: int, count: int | None) -> list[EntryRow]:
    """The session's hands numbered after ``after``, in order: ``count`` of them, or all when None."""
    query = (select(EntryRow).where(EntryRow.session_id == session_id, EntryRow.kind == HAND,
                                    EntryRow.number > after).order_by(EntryRow.number))
    return list(db.exec(query if count is None else query.limit(count)))


class KeyedEntry(NamedTuple):
    """What a retry needs of the entry recorded under its ``Idempotency-Key``: which it was and its first answer."""

    kind: str
    number: int | None
    request_hash: str | None
    response: dict | None


def find_keyed_entry(db: Session, session_id: str, key: str) -> KeyedEntry | None:
    """The entry recorded under ``Idempotency-Key`` ``key``, if any, asked again after a lock that waited
    (``group_store.lock_evening``): four columns by a statement built once, not an ORM ``EntryRow``."""
    row = db.connection().execute(_KEYED_ENTRY, {"session_id": session_id, "key": key}).first()
    return None if row is None else KeyedEntry(*row)


def add_change(db: Session, session_id: str, revision: int, kind: str, entry_id: int | None, data: dict) -> None:
    """Write the change (``ChangeRow``) in ``db``'s transaction as one ``INSERT``: it is never read back, so the
    ORM's unit of work would be work for nothing."""
    db.connection().execute(_INSERT_CHANGE, {"session_id": session_id, "revision": revision, "kind": kind,
                                             "entry_id": entry_id, "data": data, "at": utc_now()})


def add_entry_and_change(db: Session, entry: EntryRow, revision: int, kind: str, data: dict) -> None:
    """Write a new ``entry`` and the change it makes (``add_change``), setting ``entry.id``: on PostgreSQL one
    statement, a round trip less (issue 44, ``tests/api/sessions/test_round_trips.py``); SQLite has no
    ``INSERT`` inside a ``WITH``, and no round trips to save."""
    values = {name: getattr(entry, name) for name in _ENTRY_COLUMNS}
    change = {"revision": revision, "change_kind": kind, "data": data, "at": utc_now()}
    connection = db.connection()
    if connection.dialect.name == "sqlite":
        entry.id = connection.execute(_INSERT_ENTRY, values).inserted_primary_key[0]
        add_change(db, entry.session_id, revision, kind, entry.id, data)
    else:
        entry.id = connection.execute(_INSERT_ENTRY_AND_CHANGE, {**values, **change}).scalar_one()


def add_changes(db: Session, changes: list[tuple[str, int, str, dict]]) -> None:
    """``add_change`` of many sessions' changes ``(session_id, revision, kind, data)``, none of an entry, as one
    ``executemany`` (a competition's round: 250 tables, one statement, not 250 round trips)."""
    if changes:
        at = utc_now()
        db.connection().execute(_INSERT_CHANGE, [{"session_id": session_id, "revision": revision, "kind": kind,
                                                  "entry_id": None, "data": data, "at": at}
                                                 for session_id, revision, kind, data in changes])


def changes_after(db: Session, session_id: str, revision: int) -> list[ChangeRow]:
    """The session's changes after ``revision``, in order."""
    query = select(ChangeRow).where(ChangeRow.session_id == session_id, ChangeRow.revision > revision)
    return list(db.exec(query.order_by(ChangeRow.revision)))


def is_retired_token(db: Session, session_id: str, token_hash: str) -> bool:
    """Whether ``token_hash`` is of a token session ``session_id`` has replaced."""
    query = select(RetiredTokenRow).where(RetiredTokenRow.token_hash == token_hash,
                                          RetiredTokenRow.session_id == session_id)
    return db.exec(query).first() is not None


def list_entries(db: Session, session_id: str, kind: str | None = None) -> list[EntryRow]:
    """The session's entries by position, voided hands included: all of them, or only ``kind``."""
    query = select(EntryRow).where(EntryRow.session_id == session_id)
    if kind is not None:
        query = query.where(EntryRow.kind == kind)
    return list(db.exec(query.order_by(EntryRow.position)))


def list_side_entries(db: Session, session: SessionRow) -> list[EntryRow]:
    """The session's entries that are no hands (seat changes, house rules) by position; no query when
    ``entry_count == hand_count``, as on most evenings' every state read."""
    if session.entry_count == session.hand_count:
        return []
    query = select(EntryRow).where(EntryRow.session_id == session.id, EntryRow.kind != HAND)
    return list(db.exec(query.order_by(EntryRow.position)))


def find_entries(db: Session, ids: list[int]) -> list[EntryRow]:
    """The entries with these ids (in no particular order)."""
    return list(db.exec(select(EntryRow).where(EntryRow.id.in_(ids)))) if ids else []


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


# Built once (each built per call cost its coercions and a cache key on every change: issue 28)
_KEYED_ENTRY = (select(EntryRow.__table__.c.kind, EntryRow.__table__.c.number, EntryRow.__table__.c.request_hash,
                       EntryRow.__table__.c.response)
                .where(EntryRow.__table__.c.session_id == bindparam("session_id"),
                       EntryRow.__table__.c.idempotency_key == bindparam("key")))
_INSERT_CHANGE = ChangeRow.__table__.insert()
_ENTRY_COLUMNS = [column.name for column in EntryRow.__table__.columns if column.name != "id"]
_INSERT_ENTRY = EntryRow.__table__.insert()
_NEW_ENTRY = (EntryRow.__table__.insert()
              .values({name: bindparam(name, type_=EntryRow.__table__.c[name].type) for name in _ENTRY_COLUMNS})
              .returning(EntryRow.__table__.c.id).cte("new_entry"))
_INSERT_ENTRY_AND_CHANGE = (
    ChangeRow.__table__.insert().add_cte(_NEW_ENTRY)
    .values(session_id=bindparam("session_id"), revision=bindparam("revision"), kind=bindparam("change_kind"),
            entry_id=select(_NEW_ENTRY.c.id).scalar_subquery(),
            data=bindparam("data", type_=ChangeRow.__table__.c.data.type),
            at=bindparam("at", type_=ChangeRow.__table__.c.at.type))
    .returning(ChangeRow.__table__.c.entry_id))
