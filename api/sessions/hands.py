"""The hands of a session (一局, API.md: Hands): record, list, void and correct; every request needs the
session's bearer token, and ``Idempotency-Key`` makes a retried record count once.
"""
import marshmallow as ma
from flask import jsonify, request
from flask.views import MethodView

from api.http.auth import CLIENT_HEADER, IF_MATCH, SecuredBlueprint, caller, current_session
from api.http.db import get_db
from api.http.errors import JsonErrorSchema, Missing
from api.http.language import in_reader_script
from api.http.limits import limits
from api.sessions import service
from api.sessions.schemas import (IDEMPOTENCY_HEADER, INVALID_HAND, MAX_NUMBER, HandBodySchema, HandOutSchema,
                                  HandsPageSchema, RecordedHandSchema)
from api.sessions.views import hand_view
from ledger import store

blp = SecuredBlueprint("hands", __name__, url_prefix="/api/sessions",
                       description="The hands of a session: record, list, void, correct")


@blp.route("/<session_id:session_id>/hands")
class Hands(MethodView):
    @blp.secured
    @blp.arguments(HandsPageSchema, location="query", unknown=ma.RAISE)
    @blp.response(200, HandOutSchema(many=True))
    @blp.alt_response(422, schema=JsonErrorSchema, description="after below 0, or limit outside 1 to the maximum")
    def get(self, page, session_id):
        """The hands in recording order, voided ones marked: all, or a page of ``limit`` after ``after`` (fewer than
        ``limit`` means the end)."""
        session = current_session()
        hands = store.hands_after(get_db(), session_id, page["after"], page.get("limit"))
        return in_reader_script([hand_view(hand, session) for hand in hands], session.ruleset)

    @blp.secured
    @blp.arguments(HandBodySchema())
    @blp.response(201, RecordedHandSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND)
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER, IF_MATCH])
    def post(self, body, session_id):
        """Record one finished hand: its number, the state it was played in, payments, scores, and the evening's
        revision and totals after it (no second request to paint it). A full entry is scored at the table now."""
        request.require_json()
        view = service.record_hand(get_db(), session_id, body, caller(), limits())
        # Sent as built: the view has RecordedHandSchema's shape already (tests compare it with the
        # schema's dump and with GET of the same hand); dumping it again is a cost on every hand.
        return jsonify(in_reader_script(view, current_session().ruleset)), 201


@blp.route(f"/<session_id:session_id>/hands/<int(min=1, max={MAX_NUMBER}):number>")
class Hand(MethodView):
    @blp.secured
    @blp.response(200, HandOutSchema)
    def get(self, session_id, number):
        """One hand, voided or not."""
        hand = store.find_hand(get_db(), session_id, number)
        if hand is None:
            raise Missing("no_hand", number=number)
        return in_reader_script(hand_view(hand, current_session()), current_session().ruleset)

    @blp.secured
    @blp.arguments(HandBodySchema())
    @blp.response(200, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND + "; or a later hand it breaks")
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH])
    def put(self, body, session_id, number):
        """Correct a hand (更正): same number, new body; a voided hand is restored. Replays the evening."""
        request.require_json()
        view = service.correct_hand(get_db(), session_id, number, body, caller(), limits())
        return in_reader_script(view, current_session().ruleset)

    @blp.secured
    @blp.response(200, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A later hand would no longer be valid")
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH])
    def delete(self, session_id, number):
        """Void a hand (作廢): kept and marked, it counts for nothing. Replays the evening."""
        view = service.void_hand(get_db(), session_id, number, caller(), limits())
        return in_reader_script(view, current_session().ruleset)
