"""The hands of a session (一局, API.md: Hands): record, list, void and correct.

- ``POST /api/sessions/<id>/hands``: one finished hand (quick or full entry),
  numbered 1, 2, 3, … ; ``Idempotency-Key`` makes a retry record it once.
- ``GET /api/sessions/<id>/hands[?after=N&limit=L]``: the hands in order,
  voided ones marked: every hand, or for a phone paging through a long
  evening at most ``L`` (up to ``HANDS_PAGE_LIMIT``) of those numbered after ``N``.
- ``GET / PUT / DELETE /api/sessions/<id>/hands/<number>``: one hand; correct
  it (same number) or void it (kept, marked). Either replays the evening.

Every request needs the session's bearer token (``api.auth``).
"""
import marshmallow as ma
from flask import jsonify, request
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import fields, validate
from sqlmodel import Session, select

from api import recording
from api.auth import IF_MATCH, SecuredBlueprint, client_label, current_session, expected_revision
from api.db import get_session
from api.errors import JsonErrorSchema
from api.messages import say
from api.pattern_language import in_reader_script
from api.schemas import Bounded
from api.session_schemas import CLIENT_HEADER, IDEMPOTENCY_HEADER, HandBodySchema, HandOutSchema
from ledger import store
from ledger.store import EntryRow

blp = SecuredBlueprint("hands", __name__, url_prefix="/api/sessions",
                       description="The hands of a session: record, list, void, correct")

MAX_NUMBER = 2**31 - 1  # hand numbers live in a 32-bit INTEGER column; a larger one is no hand (404)
INVALID_HAND = ("Not a valid hand at this table now: unknown or unseated player, winner who discarded, "
                "no discarder, negative 台, a hand that is not a win, … (the message and field say which)")


class HandsPageSchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_NUMBER), metadata={
        "description": "Only hands numbered after this one (the last number of the page before)"})
    limit = Bounded(minimum=1, limit_key="HANDS_PAGE_LIMIT", metadata={
        "description": "At most this many hands (a page); without it, every hand after `after`"})


@blp.route("/<session_id:session_id>/hands")
class Hands(MethodView):
    @blp.secured
    @blp.arguments(HandsPageSchema, location="query", unknown=ma.RAISE)
    @blp.response(200, HandOutSchema(many=True))
    @blp.alt_response(422, schema=JsonErrorSchema, description="after below 0, or limit outside 1 to the maximum")
    def get(self, page, session_id):
        """The hands in recording order, voided ones included and marked: all of them, or a page.

        A phone pages through a long evening with ``limit`` and, for the next
        page, ``after`` the last number it got; fewer than ``limit`` hands means the end.
        """
        hands = hands_after(get_session(), session_id, page["after"], page.get("limit"))
        return in_reader_script([recording.hand_view(hand, current_session()) for hand in hands],
                                current_session().ruleset)

    @blp.secured
    @blp.arguments(HandBodySchema())
    @blp.response(201, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND)
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER, IF_MATCH])
    def post(self, _shape, session_id):
        """Record one finished hand: its number, the dealer and winds it was played in, payments, scores.

        Quick entry gives each winner's 台 (``tai``) or shanghai ``points``;
        full entry gives ``hand`` and ``win`` and the engine scores it with
        the seat wind, round wind, 局 wind and dealer of the table now.
        """
        view = recording.append(get_session(), current_session(), store.HAND, request.sent_json(),
                                key=request.headers.get("Idempotency-Key"), client=client_label(),
                                expected=expected_revision())
        # Sent as built: the view has HandOutSchema's shape already (tests compare it with the
        # schema's dump and with GET of the same hand); dumping it again cost ≈ 50 µs a hand.
        return jsonify(in_reader_script(view, current_session().ruleset)), 201


@blp.route(f"/<session_id:session_id>/hands/<int(min=1, max={MAX_NUMBER}):number>")
class Hand(MethodView):
    @blp.secured
    @blp.response(200, HandOutSchema)
    def get(self, session_id, number):
        """One hand, voided or not."""
        hand = store.find_hand(get_session(), session_id, number)
        if hand is None:
            abort(404, message=say("no_hand", number=number))
        return in_reader_script(recording.hand_view(hand, current_session()), current_session().ruleset)

    @blp.secured
    @blp.arguments(HandBodySchema())
    @blp.response(200, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND + "; or a later hand it breaks")
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH])
    def put(self, _shape, session_id, number):
        """Correct a hand (更正): same number, new body; a voided hand is restored. Replays the evening."""
        session = current_session()
        return _or_404(recording.correct_hand, session, number, request.sent_json())

    @blp.secured
    @blp.response(200, HandOutSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A later hand would no longer be valid")
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH])
    def delete(self, session_id, number):
        """Void a hand (作廢): kept and marked, it counts for nothing. Replays the evening."""
        session = current_session()
        return _or_404(recording.void_hand, session, number)


def hands_after(db: Session, session_id: str, after: int, count: int | None) -> list[EntryRow]:
    """The session's hands numbered after ``after``, in order: ``count`` of them, or all when None."""
    query = (select(EntryRow).where(EntryRow.session_id == session_id, EntryRow.kind == store.HAND,
                                    EntryRow.number > after).order_by(EntryRow.number))
    return list(db.exec(query if count is None else query.limit(count)))


def _or_404(change, session, number, *body):
    try:
        view = change(get_session(), session, number, *body, who=client_label(), expected=expected_revision())
    except recording.NotFound:
        abort(404, message=say("no_hand", number=number))
    return in_reader_script(view, session.ruleset)
