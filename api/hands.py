"""The hands of a session (一局, API.md: Hands): record, list, void and correct.

- ``POST /api/sessions/<id>/hands``: one finished hand (quick or full entry),
  numbered 1, 2, 3, … ; ``Idempotency-Key`` makes a retry record it once.
- ``GET /api/sessions/<id>/hands``: every hand in order, voided ones marked.
- ``GET / PUT / DELETE /api/sessions/<id>/hands/<number>``: one hand; correct
  it (same number) or void it (kept, marked). Either replays the evening.

Every request needs the session's bearer token (``api.auth``).
"""
from flask import jsonify, request
from flask.views import MethodView
from flask_smorest import abort

from api import recording
from api.auth import SecuredBlueprint, client_label, current_session, current_token
from api.db import get_session
from api.errors import JsonErrorSchema
from api.session_schemas import CLIENT_HEADER, IDEMPOTENCY_HEADER, HandBodySchema, HandOutSchema
from ledger import store

blp = SecuredBlueprint("hands", __name__, url_prefix="/api/sessions",
                       description="The hands of a session: record, list, void, correct")

MAX_NUMBER = 2**31 - 1  # hand numbers live in a 32-bit INTEGER column; a larger one is no hand (404)
INVALID_HAND = ("Not a valid hand at this table now: unknown or unseated player, winner who discarded, "
                "no discarder, negative 台, a hand that is not a win, … (the message and field say which)")


@blp.route("/<session_id>/hands")
class Hands(MethodView):
    @blp.secured
    @blp.response(200, HandOutSchema(many=True))
    def get(self, session_id):
        """Every hand in recording order, voided ones included and marked."""
        hands = store.list_entries(get_session(), session_id, store.HAND)
        session = current_session()
        return [recording.hand_view(hand, session) for hand in hands]

    @blp.token_checked
    @blp.arguments(HandBodySchema())
    @blp.response(201, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND)
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER])
    def post(self, _shape, session_id):
        """Record one finished hand: its number, the dealer and winds it was played in, payments, scores.

        Quick entry gives each winner's 台 (``tai``) or shanghai ``points``;
        full entry gives ``hand`` and ``win`` and the engine scores it with
        the seat wind, round wind, 局 wind and dealer of the table now.
        """
        view = recording.record_hand(session_id, current_token(), request.sent_json(),
                                     key=request.headers.get("Idempotency-Key"), client=client_label())
        # Sent as built: the view has HandOutSchema's shape already (tests compare it with the
        # schema's dump and with GET of the same hand); dumping it again cost ≈ 50 µs a hand.
        return jsonify(view), 201


@blp.route(f"/<session_id>/hands/<int(min=1, max={MAX_NUMBER}):number>")
class Hand(MethodView):
    @blp.secured
    @blp.response(200, HandOutSchema)
    def get(self, session_id, number):
        """One hand, voided or not."""
        hand = store.find_hand(get_session(), session_id, number)
        if hand is None:
            abort(404, message=f"No hand {number} in this session.")
        return recording.hand_view(hand, current_session())

    @blp.secured
    @blp.arguments(HandBodySchema())
    @blp.response(200, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND + "; or a later hand it breaks")
    @blp.doc(parameters=[CLIENT_HEADER])
    def put(self, _shape, session_id, number):
        """Correct a hand (更正): same number, new body; a voided hand is restored. Replays the evening."""
        session = current_session()
        return _or_404(recording.correct_hand, session, number, request.sent_json())

    @blp.secured
    @blp.response(200, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A later hand would no longer be valid")
    @blp.doc(parameters=[CLIENT_HEADER])
    def delete(self, session_id, number):
        """Void a hand (作廢): kept and marked, it counts for nothing. Replays the evening."""
        session = current_session()
        return _or_404(recording.void_hand, session, number)


def _or_404(change, session, number, *body):
    try:
        return change(get_session(), session, number, *body, who=client_label())
    except recording.NotFound as missing:
        abort(404, message=str(missing))
