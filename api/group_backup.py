"""A whole group as one JSON document, and back; an evening's export into a group.

- ``GET /api/groups/<id>/export`` (any token of the group): the document of
  ``api.group_schemas.GroupExportSchema``: the roster (ids, names, aliases),
  every evening as its own export (``api.backup``) with its players' members,
  the payments (voided ones too) and the seasons.
- ``POST /api/groups/import``: a new group from a document, with new ids
  and new tokens (``201``, as ``POST /api/groups``). Every evening is checked
  and replayed as ``POST /api/sessions/import`` does, before anything is
  written; then everything is written in one transaction. A document whose
  evenings, members or payments do not hold together is a ``422`` naming
  where, and creates nothing.
- ``POST /api/groups/<id>/sessions/import`` (member token): an evening's
  export becomes an evening of the group, its player names mapped to members.
"""
from collections.abc import Mapping

from flask import request
from flask.views import MethodView

from api import group_records, recording
from api.auth import MEMBER, client_label
from api.backup import PreparedImport, add_import, as_utc, export_document, prepare_import
from api.config import limit
from api.db import begin_write, get_session
from api.errors import JsonErrorSchema
from api.group_schemas import (
    GROUP_FORMAT,
    GROUP_VERSION,
    EveningImportSchema,
    GroupCreatedSchema,
    GroupExportSchema,
)
from api.groups import GroupBlueprint, current_group
from api.session_schemas import SessionCreatedSchema
from ledger import group_store, store
from ledger.errors import InvalidRequest
from ledger.group_store import AliasRow, GroupRow, MemberRow, PaymentRow, SeasonRow
from ledger.store import utc_now

blp = GroupBlueprint("group_backup", __name__, url_prefix="/api/groups",
                     description="A whole group as one JSON document, and back; an evening's export into a group")


@blp.route("/<session_id:group_id>/export")
class Export(MethodView):
    @blp.group_token()
    @blp.response(200, GroupExportSchema)
    def get(self, group_id):
        """The whole group as one document: roster, evenings with every entry, payments, seasons."""
        return export_group(get_session(), current_group())


@blp.route("/import")
class Import(MethodView):
    @blp.arguments(GroupExportSchema())
    @blp.response(201, GroupCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A document that does not hold together")
    def post(self, document):
        """A new group from an exported document, with new ids and tokens (shown only this once)."""
        group, tokens = import_group(get_session(), document, client_label())
        return {"id": group.id, "name": group.name, "defaults": group.defaults, **tokens}


@blp.route("/<session_id:group_id>/sessions/import")
class EveningImport(MethodView):
    @blp.group_token(MEMBER)
    @blp.arguments(EveningImportSchema())
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A refused document, or an unmapped player")
    def post(self, body, group_id):
        """Import an evening's export into the group, its player names mapped to members."""
        db = get_session()
        prepared = prepare_import(body["export"])
        add_import(db, prepared)
        group_records.add_imported_evening(db, current_group(), prepared.session, body["players"], client_label())
        db.commit()
        seat_changes = store.list_entries(db, prepared.session.id, store.SEAT)
        return {**recording.session_view(prepared.session, seat_changes), "group": group_id,
                "token": prepared.token, "read_token": prepared.read_token}


@blp.before_request
def _allow_large_imports():
    """A group's document holds every evening it played."""
    if request.endpoint == f"{blp.name}.{Import.__name__}":
        request.max_content_length = limit("MAX_GROUP_IMPORT_BYTES")
    elif request.endpoint == f"{blp.name}.{EveningImport.__name__}":
        request.max_content_length = limit("MAX_IMPORT_BYTES")


# -- export ----------------------------------------------------------------------


def export_group(db, group: GroupRow) -> dict:
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


def import_group(db, document: Mapping, who: str) -> tuple[GroupRow, dict]:
    """Create the group of a validated document in one transaction; it and its new tokens.

    ``InvalidRequest`` (422), creating nothing, for an evening the ledger
    refuses, a name or alias given twice, a player or payment naming no member
    of the document, a payment to oneself or naming no evening of it, a season
    whose ``from`` is after its ``to``.
    """
    member_ids = _check_roster(document["members"])
    prepared = [_prepared_evening(evening, index, member_ids) for index, evening in enumerate(document["evenings"])]
    evening_ids = {evening["id"]: imported.session.id for evening, imported in zip(document["evenings"], prepared)}
    _check_payments(document["payments"], member_ids, evening_ids)
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
        group_records.join_evening(db, group, imported.session,
                                   {player: member_ids[member] for player, member in evening["players"].items()})
    db.add_all(PaymentRow(group_id=group.id, from_member=member_ids[payment["from"]],
                          to_member=member_ids[payment["to"]], amount=payment["amount"], note=payment["note"],
                          session_id=evening_ids.get(payment["session"]), at=as_utc(payment["at"]),
                          void=payment["void"]) for payment in document["payments"])
    db.add_all(SeasonRow(group_id=group.id, name=season["name"], first_day=season["from"], last_day=season["to"])
               for season in document["seasons"])
    group_records.audit(db, group, "import", who, after={"members": len(document["members"]),
                                                         "evenings": len(prepared),
                                                         "payments": len(document["payments"])})
    db.commit()
    return group, tokens


def _new_group(db, document: Mapping) -> tuple[GroupRow, dict]:
    group, tokens = group_records.new_group(document["name"], document["defaults"])
    db.add(group)
    db.flush()
    return group, tokens


def _check_roster(members: list[Mapping]) -> dict[str, str]:
    """Each id, name and alias once; the document's member id -> a new id."""
    seen_ids, seen_names = set(), set()
    for index, member in enumerate(members):
        if member["id"] in seen_ids:
            raise InvalidRequest(f"members[{index}].id: {member['id']!r} is given twice", f"members[{index}].id")
        seen_ids.add(member["id"])
        for text in dict.fromkeys([member["name"], *member["aliases"]]):
            if text in seen_names:
                raise InvalidRequest(f"members[{index}]: the name {text!r} is given twice", f"members[{index}]")
            seen_names.add(text)
    return {member["id"]: group_records.new_member_id() for member in members}


def _prepared_evening(evening: Mapping, index: int, member_ids: Mapping[str, str]) -> PreparedImport:
    """The evening checked and replayed, and each of its players a member of the document."""
    field = f"evenings[{index}]"
    try:
        prepared = prepare_import(evening["export"])
    except InvalidRequest as refused:
        raise InvalidRequest(f"{field}.export: {refused.message}", f"{field}.export.{refused.field}") from None
    names = group_records.player_names(prepared.session)
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
