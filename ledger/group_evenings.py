"""What a change of a group's evening does to the group, in the change's own transaction.

An evening knows nothing of groups (``api.sessions`` imports no ``api.groups``), yet a group's standings
must never see one of its evenings half changed: so the evening's service calls these functions of stored
rows, in its transaction, whenever the evening has a group. ``rewrite_figures`` keeps the stored summary
(``evening_figures``, ``ledger.figures``) in step; ``check_group_money`` refuses a change after which a
member's money could pass what a phone shows exactly; ``seat_member`` turns a substitute into a member.
"""
from __future__ import annotations

import datetime
from collections.abc import Iterable

from ledger import group_store, store
from ledger.balances import EveningTotals, check_turnover_of
from ledger.errors import InvalidRequest
from ledger.figures import RecordedEvening, evening_figures, figures_by_member
from ledger.group_store import EveningPlayerRow, MemberRow, Session


def named_member(db: Session, group_id: str, ref: str, field: str) -> MemberRow:
    """The member ``ref`` names (its id, else its current name); ``InvalidRequest`` naming ``field`` if none."""
    member = group_store.find_member(db, group_id, ref)
    if member is None:
        raise InvalidRequest(f"{field}: no member {ref!r} in this group (give a member's id or current name)", field)
    return member


def seat_member(db: Session, session_id: str, group_id: str, ref: str) -> str:
    """The current name of the member ``ref`` names, who sits down at the group's evening; the name is mapped to
    them (``InvalidRequest`` naming ``player`` for no member, or a name another member has at this evening)."""
    member = named_member(db, group_id, ref, "player")
    players = group_store.evening_players(db, [session_id])[session_id]
    known = players.get(member.name)
    if known is not None and known != member.id:
        raise InvalidRequest(f"player: this evening already has a player named {member.name!r} (another member)",
                             "player")
    if known is None:
        db.add(EveningPlayerRow(session_id=session_id, player=member.name, member_id=member.id))
    return member.name


def rewrite_figures(db: Session, session: store.SessionRow, entries: list[store.EntryRow] | None = None) -> None:
    """Replace the stored figures of a group's evening with what it says now (no commit); ``entries``: all of
    the evening's, when the caller has them (an import), else they are read."""
    evening = group_store.group_evening(db, session.id)
    if evening is None:
        return
    players = group_store.evening_players(db, [session.id])[session.id]
    entries = store.list_entries(db, session.id) if entries is None else entries
    recorded = recorded_evening(session, evening.day, entries)
    by_member = figures_by_member(evening_figures(recorded), players)
    group_store.replace_figures(db, session.id, {member: figures.to_json() for member, figures in by_member.items()})


def recorded_evening(session: store.SessionRow, day: datetime.date, entries: list[store.EntryRow]) -> RecordedEvening:
    """The plain ``RecordedEvening`` that ``ledger.figures`` summarises, from a stored session and its entries."""
    return RecordedEvening(id=session.id, name=session.name, day=day, ruleset=session.ruleset,
                           entries=[{"kind": entry.kind, "number": entry.number, "body": entry.body,
                                     "void": entry.void, "result": entry.result} for entry in entries],
                           totals=session.totals)


def check_group_money(db: Session, group_id: str, field: str, members: Iterable[str] = (),
                      evening: str | None = None) -> None:
    """Before a change of the group's money commits: refuse it (422 naming ``field``) if the figures of a member
    it touched (``members``, and the members of ``evening``) could pass what a phone shows exactly
    (``ledger.balances.check_turnover_of``). Reads those members' evenings and their payments added up."""
    touched = set(members)
    if evening is not None:
        touched.update(group_store.evening_players(db, [evening])[evening].values())
    touched = sorted(touched)
    rows = group_store.evening_totals_of(db, touched)
    players = group_store.evening_players(db, [session_id for session_id, _, _ in rows])
    names = {member.id: member.name for member in group_store.find_members(db, touched)}
    check_turnover_of(names, [EveningTotals(session_id, name, totals, players[session_id])
                              for session_id, name, totals in rows],
                      group_store.payments_by_member(db, group_id, touched), field)
