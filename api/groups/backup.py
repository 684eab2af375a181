"""A whole group as one JSON document, and back; an evening's export into a group (``api.groups.documents``)."""
from flask.views import MethodView

from api.groups.documents import export_group, import_evening, import_group
from api.groups.schemas import EveningImportSchema, GroupCreatedSchema, GroupExportSchema
from api.http.auth import MEMBER, GroupBlueprint, caller, client_label, current_group
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import allow_larger_bodies, limits
from api.sessions.schemas import SessionCreatedSchema
from api.sessions.views import session_view
from ledger import store

blp = GroupBlueprint("group_backup", __name__, url_prefix="/api/groups",
                     description="A whole group as one JSON document, and back; an evening's export into a group")


@blp.route("/<group_id:group_id>/export")
class Export(MethodView):
    @blp.group_token()
    @blp.response(200, GroupExportSchema)
    def get(self, group_id):
        """The whole group as one document: roster, evenings with every entry, payments, seasons."""
        return export_group(get_db(), current_group())


@blp.route("/import")
class Import(MethodView):
    @blp.arguments(GroupExportSchema())
    @blp.response(201, GroupCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A document that does not hold together")
    def post(self, document):
        """A new group from an exported document, with new ids and tokens (shown only this once)."""
        group, tokens = import_group(get_db(), document, client_label(), limits())
        return {"id": group.id, "name": group.name, "defaults": group.defaults, **tokens}


@blp.route("/<group_id:group_id>/sessions/import")
class EveningImport(MethodView):
    @blp.group_token(MEMBER)
    @blp.arguments(EveningImportSchema())
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A refused document, or an unmapped player")
    def post(self, body, group_id):
        """Import an evening's export into the group, its player names mapped to members."""
        db = get_db()
        prepared = import_evening(db, group_id, caller(), body["export"], body["players"], limits())
        side_entries = store.list_side_entries(db, prepared.session)
        return {**session_view(prepared.session, side_entries, group_id=group_id), "token": prepared.token,
                "read_token": prepared.read_token}


# A group's document holds every evening it played; an evening's, the whole evening.
allow_larger_bodies(blp, {Import: "MAX_GROUP_IMPORT_BYTES", EveningImport: "MAX_IMPORT_BYTES"})
