"""Sessions (牌局: one table, one evening), their seats (替補) and audit trail (API.md: Sessions, Seats).

- ``POST /api/sessions``: create; the response carries the id and the token, once.
- ``GET /api/sessions/<id>``: the session with its state, totals and seat changes.
- ``POST /api/sessions/<id>/seats``: from the next hand on, a player sits in a seat.
- ``GET /api/sessions/<id>/audit``: every void, correction and restore of a hand.

Every request on a session needs its bearer token (``api.auth``).
"""
from flask import request
from flask.views import MethodView

from api import recording
from api.auth import SecuredBlueprint, client_label, current_session
from api.db import get_session
from api.errors import JsonErrorSchema
from api.session_schemas import (
    CLIENT_HEADER,
    IDEMPOTENCY_HEADER,
    AuditSchema,
    SeatChangeOutSchema,
    SeatChangeSchema,
    SessionCreatedSchema,
    SessionCreateSchema,
    SessionSchema,
)
from ledger import store

blp = SecuredBlueprint("sessions", __name__, url_prefix="/api/sessions",
                       description="Sessions (one table, one evening), seat changes and the audit trail")


@blp.route("")
class Sessions(MethodView):
    @blp.arguments(SessionCreateSchema())
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Bad players, stakes or options")
    def post(self, body):
        """Start a session; the response holds its id and its token (shown only this once)."""
        db = get_session()
        session, token = recording.create_session(db, body)
        return {**recording.session_view(session, []), "token": token}


@blp.route("/<session_id:session_id>")
class Session(MethodView):
    @blp.secured
    @blp.response(200, SessionSchema)
    def get(self, session_id):
        """The session: stakes, options, the state now (dealer, streak, winds, 荒番), totals, seat changes."""
        session = current_session()
        seat_changes = store.list_entries(get_session(), session_id, store.SEAT)
        return recording.session_view(session, seat_changes)


@blp.route("/<session_id:session_id>/seats")
class Seats(MethodView):
    @blp.secured
    @blp.arguments(SeatChangeSchema())
    @blp.response(201, SeatChangeOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="Seat outside 0–3, or a player already seated (the message says where)")
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER])
    def post(self, _shape, session_id):
        """From the next hand on, ``player`` sits in ``seat`` in place of whoever sat there.

        The seat keeps its place in the dealer rotation; if it deals, the new
        player continues the deal and its streak. Everyone keeps their total.
        """
        return recording.append(get_session(), current_session(), store.SEAT, request.sent_json(),
                                key=request.headers.get("Idempotency-Key"), client=client_label())


@blp.route("/<session_id:session_id>/audit")
class Audit(MethodView):
    @blp.secured
    @blp.response(200, AuditSchema(many=True))
    def get(self, session_id):
        """The audit trail: who voided, corrected or restored which hand, when, before and after."""
        return [recording.audit_view(audit) for audit in store.list_audits(get_session(), session_id)]
