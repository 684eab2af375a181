"""Sessions (牌局: one table, one evening), their seats (替補) and audit trail (API.md: Sessions, Seats).

- ``POST /api/sessions``: create; the response carries the id and the token, once.
- ``GET /api/sessions/<id>``: the session with its state, totals and seat changes.
- ``POST /api/sessions/<id>/seats``: from the next hand on, a player sits in a seat.
- ``GET /api/sessions/<id>/audit``: every void, correction and restore of a hand,
  and every closing and reopening.
- ``POST /api/sessions/<id>/close`` and ``…/reopen``: end the evening (every
  later change is refused with 409) or open it again.
- ``POST /api/sessions/<id>/tokens``: new write and read-only tokens; the old ones answer 401.

Every request on a session needs its bearer token (``api.http.auth``); changes need
the write token. ``GET /api/sessions/<id>`` answers with the revision as ``ETag``
and ``304`` to an ``If-None-Match`` of the revision it is still at.
"""
from flask import Response, current_app, request
from flask.views import MethodView

from api.http.auth import (CLIENT_HEADER, IF_MATCH, Caller, SecuredBlueprint, bearer_token, caller, client_label,
                           current_access, current_group_id, current_session)
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import limits
from api.sessions import service
from api.http.live import watcher
from api.sessions.schemas import (IDEMPOTENCY_HEADER, AuditSchema, SeatChangeOutSchema, SeatChangeSchema,
                                  SessionCreatedSchema, SessionCreateSchema, SessionSchema, TokensSchema)
from api.sessions.views import audit_view, session_view, table_round_view
from ledger import competition_store, store
from ledger.store import as_utc

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
        """Start a session; the response holds its id and its token (shown only this once).

        With ``group``, the evening is the group's: the bearer token is the group's member or admin token,
        the players are four members, and ruleset, stakes, options and house rules default to the group's.
        """
        if "group" in body:  # the group's to start: an evening knows no groups (api.groups.service.start_evening)
            start = current_app.extensions[GROUP_EVENINGS]
            session, token, read_token = start(get_db(), body, Caller(bearer_token(), client_label()), limits())
        else:
            session, token, read_token = service.create_session(get_db(), body, limits())
        return {**session_view(session, [], group_id=body.get("group")), "token": token, "read_token": read_token}


@blp.route("/<session_id:session_id>")
class Session(MethodView):
    @blp.secured
    @blp.response(200, SessionSchema)
    @blp.alt_response(304, description="Not modified: the session is still at the If-None-Match revision")
    def get(self, session_id):
        """The session: stakes, options, the state now (dealer, streak, winds, 荒番, closed), totals, seat changes.

        Its ``ETag`` is the revision, ``"n"``; with ``If-None-Match: "n"`` while the session is still at
        revision n the answer is 304, with no body.
        """
        session = current_session()
        etag = str(session.revision)
        if request.if_none_match.contains(etag):
            not_modified = Response(status=304)
            not_modified.set_etag(etag)
            return not_modified
        db = get_db()
        view = session_view(session, store.list_side_entries(db, session), current_access(), current_group_id())
        table = None if session.competition_id is None else competition_store.table_of_session(db, session.id)
        if table is not None:
            ended_at = table[1].ended_at
            played = ended_at is not None and (
                competition_store.hand_recorded_since(db, session.id, as_utc(ended_at))
                or competition_store.later_round_drawn(db, session.competition_id, table[0].round))
            view["competition"] = table_round_view(*table, session, played)
        else:
            view["competition"] = None
        return view, 200, {"ETag": f'"{etag}"'}


@blp.route("/<session_id:session_id>/seats")
class Seats(MethodView):
    @blp.secured(owner=True)
    @blp.arguments(SeatChangeSchema())
    @blp.response(201, SeatChangeOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="Seat outside 0–3, or a player already seated (the message says where)")
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER, IF_MATCH])
    def post(self, change, session_id):
        """From the next hand on, ``player`` sits in ``seat`` in place of whoever sat there.

        The seat keeps its place in the dealer rotation; if it deals, the new
        player continues the deal and its streak. Everyone keeps their total.
        In a group's evening the player is a member (id or current name; add a
        guest to the group first).
        """
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
