"""Persistent tables of groups (牌友會) and the queries the group endpoints need (migration 0006).

A group keeps the SHA-256 of its three tokens, as sessions do. A member's name and aliases are unique
in the group, so a name finds at most one member; an evening keeps its player names as recorded and
the member is looked up. ``EveningFiguresRow`` holds one member's ``ledger.figures.Figures`` of one
evening, rewritten with every change, so standings sum rows instead of scoring again. Payments are
voided, never deleted; ``AuditLineRow`` records who changed what in a group or a
competition, before and after.
"""
from __future__ import annotations

import datetime
from typing import Any, NamedTuple

from sqlalchemy import (BigInteger, CheckConstraint, Column, Date, ForeignKey, Index, String, UniqueConstraint, bindparam, column, delete,
                        event, or_, table, update)
from sqlmodel import Field, Session, SQLModel, func, select

from ledger import store
from ledger.names import look_key, name_key
from ledger.store import CLIENT_LENGTH, EntryRow, KeyedEntry, SessionRow, json_column, timestamp_column

NAME_LENGTH = 200


ONE_OWNER = "(group_id IS NULL) <> (competition_id IS NULL)"  # an audit line is a group's or a competition's

def _reference(target: str, *, nullable: bool = False, index: bool = True, ondelete: str = "CASCADE") -> Any:
    """A foreign key column to ``target`` (``table.column``), a string id."""
    return Field(default=None, sa_column=Column(String(64), ForeignKey(target, ondelete=ondelete),
                                                nullable=nullable, index=index))


def _name_key_column() -> Any:
    """A name's ``ledger.names.name_key``, kept by the ORM on every write and indexed, so a new name finds its
    look-alikes in one lookup. No length: folding may lengthen a name (NFKC of "ﷺ" is 18 letters)."""
    return Field(default="", sa_column=Column(String, nullable=False))


class GroupRow(SQLModel, table=True):
    """A group (牌友會): a roster, its evenings, payments and seasons."""

    __tablename__ = "groups"

    id: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=NAME_LENGTH)
    defaults: dict = json_column()
    admin_token_hash: str = Field(max_length=64, index=True)
    member_token_hash: str = Field(max_length=64, index=True)
    read_token_hash: str = Field(max_length=64, index=True)
    created_at: datetime.datetime = timestamp_column()


class RetiredGroupTokenRow(SQLModel, table=True):
    """The hash of a token the group replaced (``POST …/tokens``): on the group's evenings it answers 401 "ask for
    the new link", as an evening's own replaced token does, not 403 "does not open"."""

    __tablename__ = "retired_group_tokens"

    token_hash: str = Field(primary_key=True, max_length=64)
    group_id: str = _reference("groups.id")
    retired_at: datetime.datetime = timestamp_column()


class MemberRow(SQLModel, table=True):
    """A member of a group: a stable id and the name shown now."""

    __tablename__ = "group_members"
    __table_args__ = (UniqueConstraint("group_id", "name", name="uq_group_members_group_name"),
                      Index("ix_group_members_group_id_name_key", "group_id", "name_key"),
                      Index("ix_group_members_group_id_look_key", "group_id", "look_key"))

    id: str = Field(primary_key=True, max_length=64)
    group_id: str = _reference("groups.id", index=False)
    name: str = Field(max_length=NAME_LENGTH)
    name_key: str = _name_key_column()
    look_key: str = _name_key_column()
    created_at: datetime.datetime = timestamp_column()


class AliasRow(SQLModel, table=True):
    """Another name of a member (a name used in old evenings)."""

    __tablename__ = "member_aliases"
    __table_args__ = (UniqueConstraint("group_id", "alias", name="uq_member_aliases_group_alias"),
                      Index("ix_member_aliases_group_id_name_key", "group_id", "name_key"),
                      Index("ix_member_aliases_group_id_look_key", "group_id", "look_key"))

    id: int | None = Field(default=None, primary_key=True)
    group_id: str = _reference("groups.id", index=False)
    member_id: str = _reference("group_members.id")
    alias: str = Field(max_length=NAME_LENGTH)
    name_key: str = _name_key_column()
    look_key: str = _name_key_column()


@event.listens_for(MemberRow, "before_insert")
@event.listens_for(MemberRow, "before_update")
def _key_member(_mapper, _connection, member: MemberRow) -> None:
    member.name_key, member.look_key = name_key(member.name), look_key(member.name)


@event.listens_for(AliasRow, "before_insert")
@event.listens_for(AliasRow, "before_update")
def _key_alias(_mapper, _connection, alias: AliasRow) -> None:
    alias.name_key, alias.look_key = name_key(alias.alias), look_key(alias.alias)


class GroupEveningRow(SQLModel, table=True):
    """An evening (session) of a group, and the day it was played (for periods)."""

    __tablename__ = "group_evenings"

    session_id: str = Field(sa_column=Column(String(64), ForeignKey("sessions.id", ondelete="CASCADE"),
                                             primary_key=True))
    group_id: str = _reference("groups.id")
    day: datetime.date = Field(sa_column=Column(Date, nullable=False))


class EveningPlayerRow(SQLModel, table=True):
    """Which member a player name of a group evening is."""

    __tablename__ = "evening_players"

    session_id: str = Field(sa_column=Column(String(64), ForeignKey("group_evenings.session_id", ondelete="CASCADE"),
                                             primary_key=True))
    player: str = Field(sa_column=Column(String(NAME_LENGTH), primary_key=True))
    member_id: str = _reference("group_members.id")


class EveningFiguresRow(SQLModel, table=True):
    """One member's figures of one evening (``ledger.figures.Figures.to_json()``)."""

    __tablename__ = "evening_figures"

    session_id: str = Field(sa_column=Column(String(64), ForeignKey("group_evenings.session_id", ondelete="CASCADE"),
                                             primary_key=True))
    member_id: str = Field(sa_column=Column(String(64), ForeignKey("group_members.id", ondelete="CASCADE"),
                                            primary_key=True, index=True))
    figures: dict = json_column()


class PaymentRow(SQLModel, table=True):
    """A payment from one member to another (positive ``amount``); voided, never deleted."""

    __tablename__ = "group_payments"

    id: int | None = Field(default=None, primary_key=True)
    group_id: str = _reference("groups.id")
    from_member: str = _reference("group_members.id")  # indexed: a member's payments are added up
    to_member: str = _reference("group_members.id")  # (payments_by_member)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))  # 64-bit (revision 0008): past 2**31 on PostgreSQL
    note: str = Field(default="", max_length=NAME_LENGTH)
    session_id: str | None = _reference("sessions.id", nullable=True, index=False, ondelete="SET NULL")
    at: datetime.datetime = timestamp_column()
    void: bool = False


class SeasonRow(SQLModel, table=True):
    """A named period of a group (both days included)."""

    __tablename__ = "group_seasons"

    id: int | None = Field(default=None, primary_key=True)
    group_id: str = _reference("groups.id")
    name: str = Field(max_length=NAME_LENGTH)
    first_day: datetime.date = Field(sa_column=Column(Date, nullable=False))
    last_day: datetime.date = Field(sa_column=Column(Date, nullable=False))


class AuditLineRow(SQLModel, table=True):
    """One change of a group (roster, payment, season, evening or tokens) or of a competition (entrants, a draw,
    a clock, a withdrawal), exactly one of the two (migration 0018 joined their two tables); before and after.
    An evening's own changes are ``store.AuditRow``, which also names a hand."""

    __tablename__ = "audit_lines"
    __table_args__ = (CheckConstraint(ONE_OWNER, name="ck_audit_lines_one_owner"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: str | None = _reference("groups.id", nullable=True)
    competition_id: str | None = _reference("competitions.id", nullable=True)
    action: str = Field(max_length=20)
    who: str = Field(max_length=CLIENT_LENGTH)
    at: datetime.datetime = timestamp_column()
    before: dict | None = json_column(nullable=True)
    after: dict | None = json_column(nullable=True)


# -- queries ------------------------------------------------------------------


def find_group(db: Session, group_id: str, *, lock: bool = False) -> GroupRow | None:
    """The group, or None; with ``lock`` holding its row lock (every change of a group takes it)."""
    query = select(GroupRow).where(GroupRow.id == group_id)
    return db.exec(query.with_for_update() if lock else query).first()


def is_retired_group_token(db: Session, group_id: str, token_hash: str) -> bool:
    """Whether ``token_hash`` is of a token group ``group_id`` has replaced."""
    query = select(RetiredGroupTokenRow).where(RetiredGroupTokenRow.token_hash == token_hash,
                                               RetiredGroupTokenRow.group_id == group_id)
    return db.exec(query).first() is not None


def group_of_session(db: Session, session_id: str) -> GroupRow | None:
    """The group the evening belongs to, if any."""
    query = select(GroupRow).join(GroupEveningRow, GroupEveningRow.group_id == GroupRow.id)
    return db.exec(query.where(GroupEveningRow.session_id == session_id)).first()


class EveningKeys(NamedTuple):
    """The hashes of the tokens that open an evening: its own two, and its group's three (when in a group) or
    its competition's organiser token (when a competition's table)."""

    token_hash: str
    read_token_hash: str | None
    group_id: str | None
    group_hashes: tuple


LOCKED_EVENINGS = "taizhang.locked_evenings"


class EveningAccess(NamedTuple):
    """What a request on an evening needs before anything else: the hashes of every token that opens it (its
    own two, its group's admin, member and read tokens, its competition's organiser token), and the little
    a route reads without the evening's row (its revision, rule set, competition)."""

    id: str
    revision: int
    ruleset: str
    competition_id: str | None
    token_hash: str
    read_token_hash: str | None
    group_id: str | None
    admin_hash: str | None
    member_hash: str | None
    group_read_hash: str | None
    organizer_hash: str | None


def _keys_query(columns):
    """A select of ``columns(sessions, groups, competitions)`` of an evening joined to its group and its competition (both may be missing)."""
    sessions, evenings, groups = SessionRow.__table__, GroupEveningRow.__table__, GroupRow.__table__
    competitions = table("competitions", column("id"), column("organizer_token_hash"))  # its store imports this one
    return (select(*columns(sessions, groups, competitions))
            .select_from(sessions.outerjoin(evenings, evenings.c.session_id == sessions.c.id)
                         .outerjoin(groups, groups.c.id == evenings.c.group_id)
                         .outerjoin(competitions, competitions.c.id == sessions.c.competition_id)))


def _hashes(sessions, groups, competitions) -> tuple:
    return (sessions.c.token_hash, sessions.c.read_token_hash, groups.c.id, groups.c.admin_token_hash,
            groups.c.member_token_hash, groups.c.read_token_hash, competitions.c.organizer_token_hash)


_EVENING_ACCESS = _keys_query(lambda sessions, *joined: (
    sessions.c.id, sessions.c.revision, sessions.c.ruleset, sessions.c.competition_id,
    *_hashes(sessions, *joined))).where(SessionRow.__table__.c.id == bindparam("session_id"))


def evening_access_keys(read_one, session_id: str) -> EveningAccess | None:
    """``EveningAccess`` of the session, or None: one indexed select of plain columns by ``read_one(statement,
    parameters)`` (``api.http.db.read_one``: no ORM session; every request on an evening asks it first)."""
    row = read_one(_EVENING_ACCESS, {"session_id": session_id})
    return None if row is None else EveningAccess(*row)


def evening_keys(connection, session_ids: list[str]) -> dict[str, EveningKeys]:
    """``EveningKeys`` of each of these sessions that still exists, in one query on a Core ``connection``
    (the live-update watcher's check of who may still follow: ``api.http.live``)."""
    query = _keys_query(lambda sessions, *joined: (sessions.c.id, *_hashes(sessions, *joined)))
    return {row[0]: EveningKeys(row[1], row[2], row[3], tuple(hashed for hashed in row[4:] if hashed))
            for row in connection.execute(query.where(SessionRow.__table__.c.id.in_(session_ids)))}


def group_evening(db: Session, session_id: str) -> GroupEveningRow | None:
    return db.get(GroupEveningRow, session_id)


def find_session_and_group(db: Session, session_id: str, *,
                           lock: bool = False) -> tuple[SessionRow | None, str | None]:
    """The session and its group's id (None: standalone) in one query, as every request on an evening asks both
    (``benchmarks/state_read.py``); ``lock`` holds the row lock (``FOR UPDATE``; SQLite: ``begin_write``)."""
    query = _SESSION_AND_GROUP_LOCKED if lock else _SESSION_AND_GROUP
    row = db.exec(query, params={"session_id": session_id}).first()
    if row is None:
        return None, None
    if lock:  # held for the rest of the request (the identity map holds it weakly): its route reads it again
        db.info.setdefault(LOCKED_EVENINGS, []).append(row[0])
    return row[0], row[1]


class LockedEvening(NamedTuple):
    session: SessionRow | None
    group_id: str | None
    keyed: KeyedEntry | None  # the entry its ``Idempotency-Key`` recorded before, if any


def lock_evening(db: Session, session_id: str, key: str | None) -> LockedEvening:
    """``find_session_and_group(lock=True)`` and the entry recorded under ``key`` in one statement (a round trip
    less: issue 44). A ``FOR UPDATE`` that waited returns the row as since committed but joined rows as when it
    began, so the key is asked again when the revision moved meanwhile (``test_round_trips.py``)."""
    row = db.exec(_SESSION_GROUP_AND_KEY, params={"session_id": session_id, "key": key}).first()
    if row is None:
        return LockedEvening(None, None, None)
    db.info.setdefault(LOCKED_EVENINGS, []).append(row[0])  # as find_session_and_group
    keyed = None if row[2] is None else KeyedEntry(*row[2:6])
    if key is not None and row[6] != row[0].revision:
        keyed = store.find_keyed_entry(db, session_id, key)
    return LockedEvening(row[0], row[1], keyed)


def find_member(db: Session, group_id: str, ref: str) -> MemberRow | None:
    """The member of the group ``ref`` names: its id, else its current name."""
    member = db.get(MemberRow, ref)
    if member is not None and member.group_id == group_id:
        return member
    return member_named(db, group_id, ref)


def member_named(db: Session, group_id: str, name: str) -> MemberRow | None:
    """The member whose current name is ``name``."""
    return db.exec(select(MemberRow).where(MemberRow.group_id == group_id, MemberRow.name == name)).first()


def member_answering_to(db: Session, group_id: str, name: str) -> MemberRow | None:
    """The member whose current name, else one of whose aliases, is ``name``."""
    member = member_named(db, group_id, name)
    if member is not None:
        return member
    alias = find_alias(db, group_id, name)
    return None if alias is None else db.get(MemberRow, alias.member_id)


def delete_group(db: Session, group_id: str) -> None:
    """Delete a group with its roster, payments, seasons and audit (their foreign keys cascade); its evenings'
    sessions are deleted apart (``store.delete_sessions``)."""
    db.execute(delete(GroupRow).where(GroupRow.id == group_id))


def find_members(db: Session, member_ids: list[str]) -> list[MemberRow]:
    """The members of these ids."""
    return list(db.exec(select(MemberRow).where(MemberRow.id.in_(member_ids))))


def count_members(db: Session, group_id: str) -> int:
    return db.exec(select(func.count()).select_from(MemberRow).where(MemberRow.group_id == group_id)).one()


def count_evenings(db: Session, group_id: str) -> int:
    return db.exec(select(func.count()).select_from(GroupEveningRow).where(GroupEveningRow.group_id == group_id)).one()


def names_like(db: Session, group_id: str, names: list[str]) -> list[tuple[str, str]]:
    """``(member id, name)`` of every current name and alias of the group's members that one of ``names``
    matches (the same ``ledger.names.name_key`` or ``look_key``), those names themselves included."""
    keys, looks = sorted({name_key(name) for name in names}), sorted({look_key(name) for name in names})
    found = db.exec(select(MemberRow.id, MemberRow.name).where(
        MemberRow.group_id == group_id, or_(MemberRow.name_key.in_(keys), MemberRow.look_key.in_(looks))))
    aliases = db.exec(select(AliasRow.member_id, AliasRow.alias).where(
        AliasRow.group_id == group_id, or_(AliasRow.name_key.in_(keys), AliasRow.look_key.in_(looks))))
    return [*found, *aliases]


def payments_by_member(db: Session, group_id: str, member_ids: list[str]) -> dict[str, int]:
    """What each of ``member_ids`` paid and received in the group, added up (voided payments left out)."""
    found = dict.fromkeys(member_ids, 0)
    for side in (PaymentRow.from_member, PaymentRow.to_member):
        query = (select(side, func.sum(PaymentRow.amount))
                 .where(PaymentRow.group_id == group_id, PaymentRow.void == False, side.in_(member_ids))  # noqa: E712
                 .group_by(side))
        for member, total in db.exec(query):
            found[member] += int(total)
    return found


def evening_totals_of(db: Session, member_ids: list[str]) -> list[tuple[str, str, dict]]:
    """``(session id, name, totals)`` of every evening any of ``member_ids`` played."""
    played = select(EveningPlayerRow.session_id).where(EveningPlayerRow.member_id.in_(member_ids))
    query = select(SessionRow.id, SessionRow.name, SessionRow.totals).where(SessionRow.id.in_(played))
    return [tuple(row) for row in db.exec(query)]


def member_aliases(db: Session, member_id: str) -> list[str]:
    """The member's aliases, sorted."""
    return list(db.exec(select(AliasRow.alias).where(AliasRow.member_id == member_id).order_by(AliasRow.alias)))


def evening_of_both(db: Session, member_id: str, other_id: str) -> str | None:
    """An evening both members played at, if any."""
    query = (select(EveningPlayerRow.session_id).where(EveningPlayerRow.member_id == member_id)
             .intersect(select(EveningPlayerRow.session_id).where(EveningPlayerRow.member_id == other_id)))
    return db.exec(query).scalars().first()


def evenings_of_member(db: Session, member_id: str) -> list[str]:
    """The ids of the evenings the member played at, sorted (the order their locks are taken in)."""
    query = select(EveningPlayerRow.session_id).distinct().where(EveningPlayerRow.member_id == member_id)
    return sorted(db.exec(query))


def move_member(db: Session, member_id: str, into_id: str) -> None:
    """Whatever names ``member_id`` in evenings and payments names ``into_id`` from now on."""
    db.exec(update(EveningPlayerRow).where(EveningPlayerRow.member_id == member_id).values(member_id=into_id))
    db.exec(update(PaymentRow).where(PaymentRow.from_member == member_id).values(from_member=into_id))
    db.exec(update(PaymentRow).where(PaymentRow.to_member == member_id).values(to_member=into_id))


def delete_member(db: Session, member: MemberRow) -> None:
    """Delete a member whose evenings and payments were moved to another, with its figures."""
    db.exec(delete(EveningFiguresRow).where(EveningFiguresRow.member_id == member.id))
    db.delete(member)


def replace_figures(db: Session, session_id: str, figures: dict[str, dict]) -> None:
    """The evening's stored figures become ``figures`` (member id -> ``Figures.to_json()``)."""
    db.exec(delete(EveningFiguresRow).where(EveningFiguresRow.session_id == session_id))
    db.add_all(EveningFiguresRow(session_id=session_id, member_id=member, figures=shape)
               for member, shape in figures.items())


def find_payment(db: Session, group_id: str, payment_id: int) -> PaymentRow | None:
    """The group's payment ``payment_id``, if it has one."""
    payment = db.get(PaymentRow, payment_id)
    return payment if payment is not None and payment.group_id == group_id else None


def find_season(db: Session, group_id: str, season_id: int) -> SeasonRow | None:
    """The group's season ``season_id``, if it has one."""
    season = db.get(SeasonRow, season_id)
    return season if season is not None and season.group_id == group_id else None


def evening_totals(db: Session, group_id: str) -> list[tuple[str, str, dict]]:
    """``(session id, name, totals)`` of every evening of the group, oldest first."""
    query = (select(SessionRow.id, SessionRow.name, SessionRow.totals)
             .join(GroupEveningRow, GroupEveningRow.session_id == SessionRow.id)
             .where(GroupEveningRow.group_id == group_id).order_by(SessionRow.created_at, SessionRow.id))
    return [tuple(row) for row in db.exec(query)]


def list_members(db: Session, group_id: str, joined: bool = False) -> list[MemberRow]:
    """The roster, by name; or, ``joined``, in the order members joined (the group's own roster, as a table
    reads it, not by character codes)."""
    order = (MemberRow.created_at, MemberRow.name) if joined else (MemberRow.name,)
    return list(db.exec(select(MemberRow).where(MemberRow.group_id == group_id).order_by(*order)))


def aliases_by_member(db: Session, group_id: str) -> dict[str, list[str]]:
    """Every member's aliases, sorted."""
    found: dict[str, list[str]] = {}
    for row in db.exec(select(AliasRow).where(AliasRow.group_id == group_id).order_by(AliasRow.alias)):
        found.setdefault(row.member_id, []).append(row.alias)
    return found


def find_alias(db: Session, group_id: str, alias: str) -> AliasRow | None:
    return db.exec(select(AliasRow).where(AliasRow.group_id == group_id, AliasRow.alias == alias)).first()


def set_aliases(db: Session, member: MemberRow, aliases: list[str]) -> None:
    """Replace the member's aliases with ``aliases``."""
    db.exec(delete(AliasRow).where(AliasRow.member_id == member.id))
    db.add_all(AliasRow(group_id=member.group_id, member_id=member.id, alias=alias) for alias in aliases)


def list_evenings(db: Session, group_id: str) -> list[tuple[GroupEveningRow, SessionRow]]:
    """The group's evenings with their sessions, by day, then in the order they started (not as PostgreSQL's
    rows happen to lie)."""
    query = select(GroupEveningRow, SessionRow).join(SessionRow, SessionRow.id == GroupEveningRow.session_id)
    return list(db.exec(query.where(GroupEveningRow.group_id == group_id)
                        .order_by(GroupEveningRow.day, SessionRow.created_at, SessionRow.id)))


def evening_players(db: Session, session_ids: list[str]) -> dict[str, dict[str, str]]:
    """Per evening: player name -> member id."""
    found: dict[str, dict[str, str]] = {session_id: {} for session_id in session_ids}
    if session_ids:
        for row in db.exec(select(EveningPlayerRow).where(EveningPlayerRow.session_id.in_(session_ids))):
            found[row.session_id][row.player] = row.member_id
    return found


def list_payments(db: Session, group_id: str) -> list[PaymentRow]:
    """Every payment, voided ones included, oldest first."""
    return list(db.exec(select(PaymentRow).where(PaymentRow.group_id == group_id).order_by(PaymentRow.id)))


def list_seasons(db: Session, group_id: str) -> list[SeasonRow]:
    query = select(SeasonRow).where(SeasonRow.group_id == group_id)
    return list(db.exec(query.order_by(SeasonRow.first_day, SeasonRow.id)))


def list_audits(db: Session, group_id: str) -> list[AuditLineRow]:
    query = select(AuditLineRow).where(AuditLineRow.group_id == group_id)
    return list(db.exec(query.order_by(AuditLineRow.id)))


def figures_in_order(db: Session, group_id: str, first_day: datetime.date | None = None,
                     last_day: datetime.date | None = None) -> list[tuple[str, datetime.date, str, dict, bool]]:
    """``(session id, day, member id, figures, closed)`` of the group's evenings from ``first_day`` to ``last_day``,
    in the order ratings replay them (by day, then start, then id): standings and ratings read them once."""
    query = (select(SessionRow.id, GroupEveningRow.day, EveningFiguresRow.member_id, EveningFiguresRow.figures,
                    SessionRow.closed_at.is_not(None))
             .join(GroupEveningRow, GroupEveningRow.session_id == SessionRow.id)
             .join(EveningFiguresRow, EveningFiguresRow.session_id == SessionRow.id)
             .where(GroupEveningRow.group_id == group_id))
    if first_day is not None:
        query = query.where(GroupEveningRow.day >= first_day)
    if last_day is not None:
        query = query.where(GroupEveningRow.day <= last_day)
    return [tuple(row) for row in db.exec(query.order_by(GroupEveningRow.day, SessionRow.created_at, SessionRow.id,
                                                         EveningFiguresRow.member_id))]


def member_figures(db: Session, group_id: str, member_id: str):
    """``(EveningFiguresRow, day, session id, name, ruleset)`` of every evening of the member, by day then start."""
    query = (select(EveningFiguresRow, GroupEveningRow.day, SessionRow.id, SessionRow.name, SessionRow.ruleset)
             .join(GroupEveningRow, GroupEveningRow.session_id == EveningFiguresRow.session_id)
             .join(SessionRow, SessionRow.id == EveningFiguresRow.session_id)
             .where(GroupEveningRow.group_id == group_id, EveningFiguresRow.member_id == member_id)
             .order_by(GroupEveningRow.day, SessionRow.created_at, SessionRow.id))
    return list(db.exec(query))


# Built once: the ORM compiles and caches it, instead of building the clause on every request.
_SESSION_AND_GROUP = (select(SessionRow, GroupEveningRow.group_id)
                      .outerjoin(GroupEveningRow, GroupEveningRow.session_id == SessionRow.id)
                      .where(SessionRow.id == bindparam("session_id")))
_SESSION_AND_GROUP_LOCKED = _SESSION_AND_GROUP.with_for_update(of=SessionRow)
_keyed, _seen = EntryRow.__table__.alias("keyed"), SessionRow.__table__.alias("seen")
_SESSION_GROUP_AND_KEY = (
    select(SessionRow, GroupEveningRow.group_id, _keyed.c.kind, _keyed.c.number, _keyed.c.request_hash,
           _keyed.c.response, select(_seen.c.revision).where(_seen.c.id == bindparam("session_id")).scalar_subquery())
    .outerjoin(GroupEveningRow, GroupEveningRow.session_id == SessionRow.id)
    .outerjoin(_keyed, (_keyed.c.session_id == SessionRow.id) & (_keyed.c.idempotency_key == bindparam("key")))
    .where(SessionRow.id == bindparam("session_id")).with_for_update(of=SessionRow))
