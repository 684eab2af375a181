"""Persistent tables of competitions (比賽) and the queries their endpoints need (migration 0011).

A competition keeps its ``settings`` (``ledger.competition.Settings`` as JSON) and the SHA-256 of its two
tokens; its ``revision`` moves with every change of the competition itself, for its live stream. Each
table of a round is an evening (a session) of its own. The standings are never stored: they are a
function of the tables' evenings and the draws (``ledger.competition.rank_entrants``), so a correction at a
table moves them at once.
Its audit trail is in ``group_store.AuditLineRow``, beside a group's.
"""
from __future__ import annotations

import datetime
from typing import NamedTuple

from sqlalchemy import (JSON, BigInteger, Boolean, Column, DateTime, ForeignKey, Integer, String, UniqueConstraint,
                        bindparam, false)
from sqlalchemy.engine import Connection
from sqlmodel import Field, Session, SQLModel, select, union_all

from ledger.entries import HAND
from ledger.group_store import AuditLineRow, GroupRow
from ledger.store import CLIENT_LENGTH, AuditRow, EntryRow, SessionRow, json_column, timestamp_column

NAME_LENGTH = 200


def _reference(target: str, *, nullable: bool = False, index: bool = True, ondelete: str = "CASCADE"):
    return Field(default=None, sa_column=Column(String(64), ForeignKey(target, ondelete=ondelete),
                                                nullable=nullable, index=index))


class CompetitionRow(SQLModel, table=True):
    """A competition: many tables at once, round after round."""

    __tablename__ = "competitions"

    id: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=NAME_LENGTH)
    ruleset: str = Field(max_length=20)
    stakes: dict = json_column()
    options: dict = json_column()
    house_rules: dict | None = json_column(nullable=True)
    settings: dict = json_column()
    group_id: str | None = _reference("groups.id", nullable=True, ondelete="SET NULL")
    organizer_token_hash: str = Field(max_length=64, index=True)
    read_token_hash: str = Field(max_length=64, index=True)
    revision: int = 0
    created_at: datetime.datetime = timestamp_column()


class EntrantRow(SQLModel, table=True):
    """An entrant of a competition."""

    __tablename__ = "competition_entrants"
    __table_args__ = (UniqueConstraint("competition_id", "number", name="uq_competition_entrants_number"),
                      UniqueConstraint("competition_id", "name", name="uq_competition_entrants_name"))

    id: int | None = Field(default=None, primary_key=True)
    competition_id: str = _reference("competitions.id")
    number: int
    name: str = Field(max_length=NAME_LENGTH)
    member_id: str | None = _reference("group_members.id", nullable=True, index=False, ondelete="SET NULL")
    substitute: bool = False
    first_round: int = 1
    withdrawn_from: int | None = None
    checked_in: bool = Field(default=False, sa_column=Column(Boolean, nullable=False, server_default=false()))
    created_at: datetime.datetime = timestamp_column()


class RoundRow(SQLModel, table=True):
    """A drawn round of a competition and its clock."""

    __tablename__ = "competition_rounds"
    __table_args__ = (UniqueConstraint("competition_id", "number", name="uq_competition_rounds_number"),)

    id: int | None = Field(default=None, primary_key=True)
    competition_id: str = _reference("competitions.id")
    number: int
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    sitting_out: list = json_column()
    cut: list = json_column()
    absent: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    drawn_at: datetime.datetime = timestamp_column()
    started_at: datetime.datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    ends_at: datetime.datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    ended_at: datetime.datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))
    grace_until: datetime.datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))


class TableRow(SQLModel, table=True):
    """A table of a round: an evening of its own."""

    __tablename__ = "competition_tables"
    __table_args__ = (UniqueConstraint("competition_id", "round", "number", name="uq_competition_tables_number"),)

    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             primary_key=True))
    competition_id: str = _reference("competitions.id")
    round: int
    number: int
    seats: list = json_column()
    links: int = Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))


# -- queries ------------------------------------------------------------------


def _names_a_link_query():
    columns = (SessionRow.token_hash, SessionRow.read_token_hash, GroupRow.admin_token_hash,
               GroupRow.member_token_hash, GroupRow.read_token_hash, CompetitionRow.organizer_token_hash,
               CompetitionRow.read_token_hash)
    found = union_all(*(select(column).where(column == bindparam("token_hash")) for column in columns))
    return select(found.subquery()).limit(1)


_NAMES_A_LINK = _names_a_link_query()  # built once: a junk token's write costs this lookup and a 429, no more


def names_a_link(connection: Connection, token_hash: str) -> bool:
    """Whether ``token_hash`` is the hash of any link's token now: an evening's (a competition's tables are
    evenings), a group's or a competition's; one index lookup per column (migration 0016), on a plain
    connection (no ORM session). Here, the store that sees all three kinds."""
    return connection.execute(_NAMES_A_LINK, {"token_hash": token_hash}).first() is not None


def find_competition(db: Session, competition_id: str, *, lock: bool = False) -> CompetitionRow | None:
    """The competition, or None; with ``lock`` holding its row lock (every change of a competition takes it)."""
    query = select(CompetitionRow).where(CompetitionRow.id == competition_id)
    return db.exec(query.with_for_update() if lock else query).first()


def organizer_token_hash(db: Session, competition_id: str) -> str | None:
    """The SHA-256 of the competition's organiser token (which opens each of its tables), or None."""
    query = select(CompetitionRow.organizer_token_hash).where(CompetitionRow.id == competition_id)
    return db.exec(query).first()


def later_round_drawn(db: Session, competition_id: str, number: int) -> bool:
    """Whether a round after round ``number`` has been drawn: the standings its draw used are final."""
    query = select(RoundRow.id).where(RoundRow.competition_id == competition_id, RoundRow.number > number)
    return db.exec(query.limit(1)).first() is not None


def list_entrants(db: Session, competition_id: str) -> list[EntrantRow]:
    """The entrants by number."""
    query = select(EntrantRow).where(EntrantRow.competition_id == competition_id).order_by(EntrantRow.number)
    return list(db.exec(query))


def list_rounds(db: Session, competition_id: str) -> list[RoundRow]:
    """The drawn rounds by number."""
    query = select(RoundRow).where(RoundRow.competition_id == competition_id).order_by(RoundRow.number)
    return list(db.exec(query))


def tables_with_sessions(db: Session, competition_id: str,
                         round_number: int | None = None) -> list[tuple[TableRow, SessionRow]]:
    """Every table of the competition (or of round ``round_number``) with its evening, by round and number."""
    query = (select(TableRow, SessionRow).join(SessionRow, SessionRow.id == TableRow.session_id)
             .where(TableRow.competition_id == competition_id).order_by(TableRow.round, TableRow.number))
    if round_number is not None:
        query = query.where(TableRow.round == round_number)
    return [tuple(row) for row in db.exec(query)]


def audits(db: Session, competition_id: str) -> list[AuditLineRow]:
    query = select(AuditLineRow).where(AuditLineRow.competition_id == competition_id)
    return list(db.exec(query.order_by(AuditLineRow.id)))


def table_audits(db: Session, competition_id: str) -> list[tuple[TableRow, AuditRow]]:
    """Every audit line of every table's evening of the competition, oldest first, with its table."""
    query = (select(TableRow, AuditRow).join(AuditRow, AuditRow.session_id == TableRow.session_id)
             .where(TableRow.competition_id == competition_id).order_by(AuditRow.id))
    return [tuple(row) for row in db.exec(query)]


class TablePlace(NamedTuple):
    """Where an evening stands as a competition's table: what a change there checks and its audit names."""

    competition_id: str
    round: int
    number: int
    ended_at: datetime.datetime | None
    grace_until: datetime.datetime | None


def table_place(db: Session, session_id: str) -> TablePlace | None:
    """The competition, round and number of the table the evening ``session_id`` is, and when its round ended
    and its grace ends; None for an evening of no competition. Columns only: every change at a table asks it."""
    query = (select(TableRow.competition_id, TableRow.round, TableRow.number, RoundRow.ended_at, RoundRow.grace_until)
             .join(RoundRow, (RoundRow.competition_id == TableRow.competition_id) & (RoundRow.number == TableRow.round))
             .where(TableRow.session_id == session_id))
    found = db.exec(query).first()
    return None if found is None else TablePlace(*found)


def find_table(db: Session, session_id: str) -> TableRow | None:
    """The competition's table the evening ``session_id`` is (its primary key), or None."""
    return db.get(TableRow, session_id)


def table_of_session(db: Session, session_id: str) -> tuple[TableRow, RoundRow, CompetitionRow] | None:
    """The competition's table the evening ``session_id`` is, with its round and competition; None for an
    evening of no competition. ``GET /api/sessions/<id>`` asks it only of an evening whose ``competition_id``
    says it is a table (every other evening's read stays one statement)."""
    query = (select(TableRow, RoundRow, CompetitionRow)
             .join(RoundRow, (RoundRow.competition_id == TableRow.competition_id) & (RoundRow.number == TableRow.round))
             .join(CompetitionRow, CompetitionRow.id == TableRow.competition_id)
             .where(TableRow.session_id == session_id))
    found = db.exec(query).first()
    return None if found is None else tuple(found)


def hand_recorded_since(db: Session, session_id: str, moment: datetime.datetime) -> bool:
    """Whether the evening recorded a hand after ``moment``."""
    query = select(EntryRow.id).where(EntryRow.session_id == session_id, EntryRow.kind == HAND,
                                      EntryRow.created_at > moment)
    return db.exec(query.limit(1)).first() is not None


def sessions_by_id(db: Session, session_ids: list[str]) -> dict[str, SessionRow]:
    """The evenings ``session_ids`` by id (what moved since a competition's live stream last read it)."""
    return {session.id: session for session in db.exec(select(SessionRow).where(SessionRow.id.in_(session_ids)))}


def table_revisions(db: Session, competition_id: str, round_number: int | None = None) -> dict[str, int]:
    """The revision of every table's evening of the competition, or of round ``round_number``'s (what a live
    stream compares, and what names a rendered document of it)."""
    query = (select(TableRow.session_id, SessionRow.revision).join(SessionRow, SessionRow.id == TableRow.session_id)
             .where(TableRow.competition_id == competition_id))
    if round_number is not None:
        query = query.where(TableRow.round == round_number)
    return {session_id: revision for session_id, revision in db.exec(query)}


def lock_round_sessions(db: Session, competition_id: str, number: int) -> list[SessionRow]:
    """The evenings of round ``number``'s tables, holding their row locks, taken in the order of their ids (as
    every change that locks several evenings takes them): one query for the 200 tables of a round, not 200."""
    query = (select(SessionRow).join(TableRow, TableRow.session_id == SessionRow.id)
             .where(TableRow.competition_id == competition_id, TableRow.round == number)
             .order_by(SessionRow.id).with_for_update(of=SessionRow))
    return list(db.exec(query))
