"""Sessions (牌局: one table, one evening), their seats (替補) and audit trail (API.md: Sessions, Seats).

Every request needs the session's bearer token, a change the write token (``api.http.auth``); ``GET``
answers the revision as ``ETag`` and 304 to an ``If-None-Match`` it is still at.
"""
from flask import Response, current_app, request
from flask.views import MethodView

from api.http.auth import (CLIENT_HEADER, IF_MATCH, Caller, SecuredBlueprint, bearer_token, caller, client_label,
                           current_access, current_evening, current_session)
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import limits
from api.sessions import service
from api.http.live import watcher
from api.sessions.kept import json_answer, kept_answers
from api.sessions.schemas import (IDEMPOTENCY_HEADER, AuditSchema, SeatChangeOutSchema, SeatChangeSchema,
                                  SessionCreatedSchema, SessionCreateSchema, SessionSchema, TokensSchema)
from api.sessions.views import audit_view, session_view, table_round_view
from ledger import competition_store, store
from ledger.store import as_utc

SESSION_SCHEMA = SessionSchema()

GROUP_EVENINGS = "taizhang.group_evenings"  # app.extensions: what starts a group's evening (set by create_app)

blp = SecuredBlueprint("sessions", __name__, url_prefix="/api/sessions",
                       description="Sessions (one table, one evening), seat changes and the audit trail")


@blp.route("")
class Sessions(MethodView):
    @blp.arguments(SessionCreateSchema())
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Bad players, stakes or options")
    @blp.alt_response(401, schema=JsonErrorSchema, description="A group's evening without a token of the group")
    @blp.alt_response(403, schema=JsonErrorSchema, description="A group's evening with its read-only token")
    def post(self, body):
        """Start a session; the response holds its id and its token (shown only this once). With ``group``, the
        evening is the group's: its players are members and its defaults the group's."""
        if "group" in body:  # the group's to start: an evening knows no groups (api.groups.service.start_evening)
            start = current_app.extensions[GROUP_EVENINGS]
            session, token, read_token = start(get_db(), body, Caller(bearer_token(), client_label()), limits())
        else:
            session, token, read_token = service.create_session(get_db(), body, limits())
        view = session_view(session, [], group_id=body.get("group"))
        keep_answer((session.id, view["access"], view["group"]), {**view, "competition": None})  # its first read
        return {**view, "token": token, "read_token": read_token}


@blp.route("/<session_id:session_id>")
class Session(MethodView):
    @blp.secured
    @blp.response(200, SessionSchema)
    @blp.alt_response(304, description="Not modified: the session is still at the If-None-Match revision")
    def get(self, session_id):
        """The session: stakes, options, the state now, totals, seat changes; ``ETag`` ``"n"`` is the revision, and
        ``If-None-Match: "n"`` at revision n is a 304 with no body."""
        evening, access = current_evening(), current_access()
        etag = str(evening.revision)
        if request.if_none_match.contains(etag):
            not_modified = Response(status=304)
            not_modified.set_etag(etag)
            return not_modified
        key = (session_id, access, evening.group_id)
        kept = None if evening.competition_id is not None else kept_answers().get(key, evening.revision)
        if kept is not None:
            return json_answer(kept), 200, {"ETag": f'"{etag}"'}
        db = get_db()
        session = current_session()  # at this revision or a later one, if a change got in since the check
        view = session_view(session, store.list_side_entries(db, session), access, evening.group_id)
        table = None if session.competition_id is None else competition_store.table_of_session(db, session.id)
        if table is not None:
            ended_at = table[1].ended_at
            played = ended_at is not None and (
                competition_store.hand_recorded_since(db, session.id, as_utc(ended_at))
                or competition_store.later_round_drawn(db, session.competition_id, table[0].round))
            view["competition"] = table_round_view(*table, session, played)
            return view, 200, {"ETag": f'"{session.revision}"'}
        view["competition"] = None
        return keep_answer(key, view), 200, {"ETag": f'"{session.revision}"'}


def keep_answer(key: tuple, view: dict) -> Response:
    """``view``, an evening's answer to ``GET``, as sent and kept for its revision (``api.sessions.kept``)."""
    body = current_app.json.response(SESSION_SCHEMA.dump(view)).get_data()
    kept_answers().keep(key, view["revision"], body)
    return json_answer(body)


@blp.route("/<session_id:session_id>/seats")
class Seats(MethodView):
    @blp.secured(owner=True)
    @blp.arguments(SeatChangeSchema())
    @blp.response(201, SeatChangeOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="Seat outside 0–3, or a player already seated (the message says where)")
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER, IF_MATCH])
    def post(self, change, session_id):
        """From the next hand on, ``player`` sits in ``seat``, taking its place in the dealer rotation (and the deal
        and streak, if it deals); everyone keeps their total. In a group's evening the player is a member."""
        return service.seat_player(get_db(), session_id, change, caller(), limits())


@blp.route("/<session_id:session_id>/audit")
class Audit(MethodView):
    @blp.secured
    @blp.response(200, AuditSchema(many=True))
    def get(self, session_id):
        """The audit trail: who voided, corrected or restored which hand, when, before and after."""
        return [audit_view(audit) for audit in store.list_audits(get_db(), session_id)]


@blp.route("/<session_id:session_id>/close")
class Close(MethodView):
    @blp.secured(owner=True)
    @blp.response(200, SessionSchema)
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH])
    def post(self, session_id):
        """End the evening (結束): from now on every change is refused (409) until it is reopened. Audited."""
        return service.close(get_db(), session_id, caller())


@blp.route("/<session_id:session_id>/reopen")
class Reopen(MethodView):
    @blp.secured(owner=True)
    @blp.response(200, SessionSchema)
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH])
    def post(self, session_id):
        """Open a closed evening again. Audited."""
        return service.reopen(get_db(), session_id, caller())


@blp.route("/<session_id:session_id>/tokens")
class Tokens(MethodView):
    @blp.secured(owner=True)
    @blp.response(201, TokensSchema)
    def post(self, session_id):
        """New write and read-only tokens (a link leaked): the old ones answer 401 from now on. Shown once."""
        token, read_token = service.replace_tokens(get_db(), session_id, caller())
        watcher().wake(session_id)  # the old links' live streams end now, and their phones say so
        return {"token": token, "read_token": read_token}
