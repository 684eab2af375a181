"""A whole group as one JSON document and back (``…/export``, ``POST /api/groups/import``), and an evening's
export into a group.

- ``export_group``: the document of ``api.groups.schemas.GroupExportSchema``:
  the roster (ids, names, aliases), every evening as its own export
  (``api.sessions.documents``) with its players' members, the payments
  (voided ones too) and the seasons.
- ``import_group``: a new group from a document, with new ids and new
  tokens. Every evening is checked and replayed as an evening's import is,
  before anything is written; then everything is written in one
  transaction. A document whose evenings, members or payments do not hold
  together is refused (422) naming where, and creates nothing.
- ``import_evening``: an evening's export becomes an evening of the group,
  its player names mapped to members.
"""
from collections.abc import Mapping

from sqlmodel import Session

from api.groups import service
from api.groups.schemas import GROUP_FORMAT, GROUP_VERSION
from api.http.auth import MEMBER, Caller
from api.http.db import begin_write
from api.http.limits import Limits
from api.sessions.documents import PreparedImport, add_import, export_document, prepare_import
from ledger import group_store, store
from ledger.balances import EveningTotals, Payment, check_turnover
from ledger.errors import InvalidRequest
from ledger.names import LookAlike, name_key
from ledger.group_store import AliasRow, GroupRow, MemberRow, PaymentRow, SeasonRow
from ledger.store import as_utc, utc_now


def import_evening(db: Session, group_id: str, caller: Caller, document: Mapping, players: Mapping[str, str],
                   limits: Limits) -> PreparedImport:
    """Import an evening's export into the group, its player names mapped to members, and commit.

    The document is checked and replayed before the group's lock is taken.
    """
    prepared = prepare_import(document, limits)
    group = service.locked_group(db, group_id, caller.token, MEMBER)
    add_import(db, prepared)
    service.add_imported_evening(db, group, prepared.session, players, caller.who, limits)
    db.commit()
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


def import_group(db: Session, document: Mapping, who: str, limits: Limits) -> tuple[GroupRow, dict]:
    """Create the group of a validated document in one transaction; it and its new tokens.

    ``InvalidRequest`` (422), creating nothing, for an evening the ledger
    refuses, a name or alias given twice, a player or payment naming no member
    of the document, a payment to oneself or naming no evening of it, a season
    whose ``from`` is after its ``to``.
    """
    member_ids = _check_roster(document["members"])
    prepared = [_prepared_evening(evening, index, member_ids, limits)
                for index, evening in enumerate(document["evenings"])]
    evening_ids = {evening["id"]: imported.session.id for evening, imported in zip(document["evenings"], prepared)}
    _check_payments(document["payments"], member_ids, evening_ids)
    check_turnover({member_ids[member["id"]]: member["name"] for member in document["members"]},
                   [EveningTotals(imported.session.id, imported.session.name, imported.session.totals,
                                  {player: member_ids[member] for player, member in evening["players"].items()})
                    for evening, imported in zip(document["evenings"], prepared)],
                   [Payment(index, member_ids[payment["from"]], member_ids[payment["to"]], payment["amount"],
                            payment["void"]) for index, payment in enumerate(document["payments"])], "payments")
    for index, season in enumerate(document["seasons"]):
        if season["from"] > season["to"]:
            raise InvalidRequest(f"seasons[{index}]: from is after to", f"seasons[{index}].from")
    begin_write(db)
    group, tokens = _new_group(db, document)
    db.add_all(MemberRow(id=member_ids[member["id"]], group_id=group.id, name=member["name"])
               for member in document["members"])
    db.flush()
    db.add_all(AliasRow(group_id=group.id, member_id=member_ids[member["id"]], alias=alias)
               for member in document["members"] for alias in member["aliases"])
    for evening, imported in zip(document["evenings"], prepared):
        add_import(db, imported)
        service.join_evening(db, group, imported.session,
                             {player: member_ids[member] for player, member in evening["players"].items()},
                             max_evenings=None)
    db.add_all(PaymentRow(group_id=group.id, from_member=member_ids[payment["from"]],
                          to_member=member_ids[payment["to"]], amount=payment["amount"], note=payment["note"],
                          session_id=evening_ids.get(payment["session"]), at=as_utc(payment["at"]),
                          void=payment["void"]) for payment in document["payments"])
    db.add_all(SeasonRow(group_id=group.id, name=season["name"], first_day=season["from"], last_day=season["to"])
               for season in document["seasons"])
    service.audit(db, group, "import", who, after={"members": len(document["members"]),
                                                         "evenings": len(prepared),
                                                         "payments": len(document["payments"])})
    db.commit()
    return group, tokens


def _new_group(db: Session, document: Mapping) -> tuple[GroupRow, dict]:
    group, tokens = service.new_group(document["name"], document["defaults"])
    db.add(group)
    db.flush()
    return group, tokens


def _check_roster(members: list[Mapping]) -> dict[str, str]:
    """Each id, name and alias once; the document's member id -> a new id."""
    seen_ids, seen_names, keys = set(), set(), {}
    for index, member in enumerate(members):
        if member["id"] in seen_ids:
            raise InvalidRequest(f"members[{index}].id: {member['id']!r} is given twice", f"members[{index}].id")
        seen_ids.add(member["id"])
        for text in dict.fromkeys([member["name"], *member["aliases"]]):
            if text in seen_names:
                raise InvalidRequest(f"members[{index}]: the name {text!r} is given twice", f"members[{index}]")
            seen_names.add(text)
            owner, existing = keys.setdefault(name_key(text), (index, text))
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


def _check_payments(payments: list[Mapping], member_ids: Mapping[str, str], evening_ids: Mapping[str, str]) -> None:
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
