"""A whole group as one JSON document and back (``…/export``, ``POST /api/groups/import``), and an evening's
export into a group.

Every evening is checked and replayed as an evening's import is, and the whole document checked, before
anything is written: a document that does not hold together is a 422 naming where, and creates
nothing. Then it is written in short pieces, each its own transaction, as an evening's import
(``api.sessions.documents``); the new group is reachable by nobody until the answer, an evening joins its
group only in the last transaction, with the lock; on failure everything written is deleted.
"""
from collections.abc import Mapping
from typing import NamedTuple

from sqlmodel import Session

from api.groups import service
from api.groups.schemas import GROUP_FORMAT, GROUP_VERSION
from api.http.auth import MEMBER, Caller
from api.http.db import add_flushed, begin_write, next_piece
from api.http.limits import Limits
from api.http.offload import off_loop, pause
from api.sessions import documents as evening_documents
from api.sessions.documents import PreparedImport, discard_imports, export_document, prepare_import, write_import
from ledger import group_store, store
from ledger.balances import EveningTotals, Payment, check_turnover
from ledger.errors import InvalidRequest
from ledger.names import LookAlike, look_key, name_key
from ledger.group_store import AliasRow, GroupRow, MemberRow, PaymentRow, SeasonRow
from ledger.store import as_utc, utc_now


def import_evening(db: Session, group_id: str, caller: Caller, document: Mapping, players: Mapping[str, str],
                   limits: Limits) -> PreparedImport:
    """Import an evening's export into the group, its names mapped to members, and commit: checked, replayed and
    written before the group's lock is taken, then joined in one transaction with it."""
    prepared = off_loop(prepare_import, document, limits)
    write_import(db, prepared)
    try:
        group = service.locked_group(db, group_id, caller.token, MEMBER)
        service.add_imported_evening(db, group, prepared.session, players, caller.who, limits, prepared.rows)
        db.commit()
    except BaseException:
        discard_imports(db, [prepared.session.id])
        raise
    return prepared


# -- export ----------------------------------------------------------------------


def export_group(db: Session, group: GroupRow) -> dict:
    """The group's document (``GroupExportSchema``), before serialisation; evenings oldest first."""
    aliases = group_store.aliases_by_member(db, group.id)
    evenings = sorted(group_store.list_evenings(db, group.id), key=lambda pair: (as_utc(pair[1].created_at),
                                                                                 pair[1].id))
    players = group_store.evening_players(db, [session.id for _, session in evenings])
    return {
        "format": GROUP_FORMAT, "version": GROUP_VERSION, "exported_at": utc_now(),
        "name": group.name, "defaults": group.defaults,
        "members": [{"id": member.id, "name": member.name, "aliases": aliases.get(member.id, [])}
                    for member in group_store.list_members(db, group.id)],
        "evenings": [{"id": session.id, "players": players[session.id],
                      "export": export_document(store.load_session(db, session.id))} for _, session in evenings],
        "payments": [{"from": payment.from_member, "to": payment.to_member, "amount": payment.amount,
                      "note": payment.note, "session": payment.session_id, "at": as_utc(payment.at),
                      "void": payment.void} for payment in group_store.list_payments(db, group.id)],
        "seasons": [{"name": season.name, "from": season.first_day, "to": season.last_day}
                    for season in group_store.list_seasons(db, group.id)],
    }


# -- import ----------------------------------------------------------------------


class PreparedGroup(NamedTuple):
    """A group document checked, its evenings replayed: what ``import_group`` writes."""

    group: GroupRow
    tokens: dict
    member_ids: dict[str, str]
    evenings: list[PreparedImport]


def import_group(db: Session, document: Mapping, who: str, limits: Limits) -> tuple[GroupRow, dict]:
    """Create the group of a validated document, in pieces; it and its new tokens, or ``InvalidRequest`` (422)
    creating nothing."""
    prepared = off_loop(_prepared_group, document, limits)
    group, member_ids = prepared.group, prepared.member_ids
    written: list[str] = []
    try:
        begin_write(db)
        db.add(group)
        db.flush()
        _add_in_pieces(db, [MemberRow(id=member_ids[member["id"]], group_id=group.id, name=member["name"])
                            for member in document["members"]])
        _add_in_pieces(db, [AliasRow(group_id=group.id, member_id=member_ids[member["id"]], alias=alias)
                            for member in document["members"] for alias in member["aliases"]])
        db.commit()
        evening_ids = {}
        for evening, imported in zip(document["evenings"], prepared.evenings):
            written.append(imported.session.id)
            write_import(db, imported)
            begin_write(db)
            service.join_evening(db, group, imported.session,
                                 {player: member_ids[member] for player, member in evening["players"].items()},
                                 max_evenings=None, entries=imported.rows)
            evening_ids[evening["id"]] = imported.session.id
            db.commit()
            pause()
        begin_write(db)
        _add_in_pieces(db, [PaymentRow(group_id=group.id, from_member=member_ids[payment["from"]],
                                       to_member=member_ids[payment["to"]], amount=payment["amount"],
                                       note=payment["note"], session_id=evening_ids.get(payment["session"]),
                                       at=as_utc(payment["at"]), void=payment["void"])
                            for payment in document["payments"]])
        db.add_all(SeasonRow(group_id=group.id, name=season["name"], first_day=season["from"],
                             last_day=season["to"]) for season in document["seasons"])
        service.audit(db, group, "import", who, after={"members": len(document["members"]),
                                                       "evenings": len(prepared.evenings),
                                                       "payments": len(document["payments"])})
        db.commit()
    except BaseException:
        discard_imports(db, written, also=lambda db: group_store.delete_group(db, group.id))
        raise
    return group, prepared.tokens


def _add_in_pieces(db: Session, rows: list) -> None:
    """Add ``rows`` (in a write transaction), committing and beginning again every ``PIECE_ROWS`` of them
    (``api.sessions.documents``)."""
    size = evening_documents.PIECE_ROWS
    for start in range(0, len(rows), size):
        if start:
            next_piece(db)
        add_flushed(db, rows[start:start + size])


def _prepared_group(document: Mapping, limits: Limits) -> PreparedGroup:
    """Everything of ``import_group`` that reads no database (off the loop): the checks, the replays, the new
    group, its tokens and member ids."""
    member_ids = _check_roster(document["members"])
    prepared = [_prepared_evening(evening, index, member_ids, limits)
                for index, evening in enumerate(document["evenings"])]
    _check_payments(document["payments"], member_ids, {evening["id"] for evening in document["evenings"]})
    check_turnover({member_ids[member["id"]]: member["name"] for member in document["members"]},
                   [EveningTotals(imported.session.id, imported.session.name, imported.session.totals,
                                  {player: member_ids[member] for player, member in evening["players"].items()})
                    for evening, imported in zip(document["evenings"], prepared)],
                   [Payment(index, member_ids[payment["from"]], member_ids[payment["to"]], payment["amount"],
                            payment["void"]) for index, payment in enumerate(document["payments"])], "payments")
    for index, season in enumerate(document["seasons"]):
        if season["from"] > season["to"]:
            raise InvalidRequest(f"seasons[{index}]: from is after to", f"seasons[{index}].from")
    group, tokens = service.new_group(document["name"], document["defaults"])
    return PreparedGroup(group, tokens, member_ids, prepared)


def _check_roster(members: list[Mapping]) -> dict[str, str]:
    """Each id, name and alias once; the document's member id -> a new id."""
    seen_ids, seen_names, keys, looks = set(), set(), {}, {}
    for index, member in enumerate(members):
        if member["id"] in seen_ids:
            raise InvalidRequest(f"members[{index}].id: {member['id']!r} is given twice", f"members[{index}].id")
        seen_ids.add(member["id"])
        for text in dict.fromkeys([member["name"], *member["aliases"]]):
            if text in seen_names:
                raise InvalidRequest(f"members[{index}]: the name {text!r} is given twice", f"members[{index}]")
            seen_names.add(text)
            for owner, existing in (keys.setdefault(name_key(text), (index, text)),
                                    looks.setdefault(look_key(text), (index, text))):
                if owner != index:
                    raise LookAlike(text, existing, f"members[{index}]")
    return {member["id"]: service.new_member_id() for member in members}


def _prepared_evening(evening: Mapping, index: int, member_ids: Mapping[str, str], limits: Limits) -> PreparedImport:
    """The evening checked and replayed, and each of its players a member of the document."""
    field = f"evenings[{index}]"
    try:
        prepared = prepare_import(evening["export"], limits)
    except InvalidRequest as refused:
        raise InvalidRequest(f"{field}.export: {refused.message}", f"{field}.export.{refused.field}") from None
    names = service.player_names(prepared.session)
    if sorted(evening["players"]) != sorted(names):
        raise InvalidRequest(f"{field}.players must map exactly the evening's players ({', '.join(names)})",
                             f"{field}.players")
    for player, member in evening["players"].items():
        if member not in member_ids:
            raise InvalidRequest(f"{field}.players.{player}: no member {member!r} in the document",
                                 f"{field}.players.{player}")
    return prepared


def _check_payments(payments: list[Mapping], member_ids: Mapping[str, str], evening_ids: set[str]) -> None:
    for index, payment in enumerate(payments):
        field = f"payments[{index}]"
        for side in ("from", "to"):
            if payment[side] not in member_ids:
                raise InvalidRequest(f"{field}.{side}: no member {payment[side]!r} in the document", f"{field}.{side}")
        if payment["from"] == payment["to"]:
            raise InvalidRequest(f"{field}.to: a payment to oneself", f"{field}.to")
        if payment["session"] is not None and payment["session"] not in evening_ids:
            raise InvalidRequest(f"{field}.session: no evening {payment['session']!r} in the document",
                                 f"{field}.session")
