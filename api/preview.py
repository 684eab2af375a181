"""Previews (試算): what a hand, a void or a correction would do, worked out in memory and never written.

A table wants to see the money before it taps Record, and which later hands
change before it voids or corrects one. Both previews use the code that
records (``ledger.recorder`` through ``recording.replay``), so what is shown
is what recording would store; nothing here takes the session's lock or
writes a row.

- ``POST /api/sessions/<id>/hands/preview``: a hand body, as for
  ``POST …/hands``: the hand it would be (number, dealer, payments, lines)
  and the totals after it.
- ``POST /api/sessions/<id>/hands/<n>/preview``: ``{"void": true}`` or
  ``{"body": {…}}`` (a correction, or restoring a voided hand): every hand
  whose dealer, streak, values or payments would change, before and after,
  and the totals before and after.
"""
from types import SimpleNamespace

import marshmallow as ma
from flask import request
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import fields

from api import recording
from api.auth import SecuredBlueprint, current_session
from api.config import limit
from api.db import get_session
from api.errors import JsonErrorSchema
from api.hands import INVALID_HAND, MAX_NUMBER
from api.messages import say
from api.pattern_language import in_reader_script
from api.session_schemas import HandBodySchema, PaymentLineSchema, StateSchema, WinnerScoreSchema, amounts
from ledger import store
from ledger.explain import explain_hand
from ledger.recorder import HAND, Recorder

blp = SecuredBlueprint("preview", __name__, url_prefix="/api/sessions",
                       description="Previews: a hand, a void or a correction worked out without recording it")


class HandPreviewSchema(ma.Schema):
    """The hand a body would be if recorded now."""

    number = fields.Integer(required=True, metadata={"description": "The number it would get"})
    dealer = fields.String(required=True)
    streak = fields.Integer(required=True)
    round_wind = fields.String(required=True)
    hand_wind = fields.String(required=True)
    wasteland = fields.Integer(required=True)
    payments = amounts("The four seated players; sums to zero")
    scores = fields.List(fields.Nested(WinnerScoreSchema), required=True)
    lines = fields.List(fields.Nested(PaymentLineSchema), required=True)
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state after it"})
    totals = amounts("Every participant's total after it")


class ChangeRequestSchema(ma.Schema):
    """A void (``{"void": true}``) or a correction (``{"body": {...}}``) to preview."""

    void = fields.Boolean(metadata={"description": "Preview voiding the hand"})
    body = fields.Nested(HandBodySchema, metadata={"description": "Preview replacing (or restoring) the hand"})

    @ma.validates_schema
    def one_of(self, data, **_):
        if bool(data.get("void")) == ("body" in data):
            raise ma.ValidationError('give either "void": true or "body"', "_schema")


class HandSideSchema(ma.Schema):
    void = fields.Boolean(required=True)
    dealer = fields.String(required=True)
    streak = fields.Integer(required=True)
    values = fields.List(fields.Integer(), required=True, metadata={"description": "Each winner's 台 or points"})
    payments = amounts("The four seated players (empty for a voided hand)")


class HandChangeSchema(ma.Schema):
    number = fields.Integer(required=True)
    before = fields.Nested(HandSideSchema, required=True)
    after = fields.Nested(HandSideSchema, required=True)


class ChangePreviewSchema(ma.Schema):
    number = fields.Integer(required=True, metadata={"description": "The hand voided or corrected"})
    action = fields.String(required=True, metadata={"description": "void, correct or restore"})
    changes = fields.List(fields.Nested(HandChangeSchema), required=True, metadata={
        "description": "Every hand that would change (the hand itself first), in order"})
    totals_before = amounts("Every participant's total now")
    totals_after = amounts("Every participant's total after the change")


@blp.route("/<session_id:session_id>/hands/preview")
class HandPreview(MethodView):
    @blp.secured(changes=False)
    @blp.arguments(HandBodySchema())
    @blp.response(200, HandPreviewSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND)
    def post(self, _shape, session_id):
        """What a hand would pay if recorded now (the Win form's preview); records nothing."""
        session = current_session()
        body = request.sent_json()
        recorder = Recorder.resume(session.ruleset, session.players, session.stakes, session.options,
                                   session.state, session.totals, session.house_rules,
                                   max_participants=limit("MAX_PARTICIPANTS"))
        result = recorder.record(HAND, body)
        preview = {"number": session.hand_count + 1,
                   **{key: result[key] for key in ("dealer", "streak", "round_wind", "hand_wind", "wasteland",
                                                    "payments", "scores")},
                   "lines": explain_hand(session.ruleset, session.stakes, session.options, body, result,
                                         session.house_rules),
                   "state": result["after"], "totals": recorder.totals}
        return in_reader_script(preview, session.ruleset)


@blp.route(f"/<session_id:session_id>/hands/<int(min=1, max={MAX_NUMBER}):number>/preview")
class ChangePreview(MethodView):
    @blp.secured(changes=False)
    @blp.arguments(ChangeRequestSchema())
    @blp.response(200, ChangePreviewSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A later hand would no longer be valid")
    def post(self, change, session_id, number):
        """Which hands a void or correction would change, and the totals after; changes nothing."""
        session = current_session()
        db = get_session()
        stored = store.list_entries(db, session_id)
        entries = [SimpleNamespace(kind=e.kind, body=e.body, void=e.void, number=e.number, result=e.result)
                   for e in stored]
        target = next((e for e in entries if e.kind == HAND and e.number == number), None)
        if target is None:
            abort(404, message=say("no_hand", number=number))
        action = "void" if change.get("void") else ("restore" if target.void else "correct")
        if action == "void":
            target.void = True
        else:
            target.body, target.void = request.sent_json()["body"], False
        recorder, results = recording.replay(session, entries, keep_scores=True, changed=target)
        changes = []
        for old, new, result in zip(stored, entries, results):
            if new.kind == HAND:
                before, after = _side(old.void, old.result), _side(new.void, result)
                if before != after:
                    changes.append({"number": new.number, "before": before, "after": after})
        changes.sort(key=lambda item: item["number"] != number)
        return {"number": number, "action": action, "changes": changes, "totals_before": session.totals,
                "totals_after": recorder.totals}


def _side(void: bool, result: dict) -> dict:
    """What a table compares of one hand: void, dealer, streak, each winner's value, payments."""
    return {"void": void, "dealer": result["dealer"], "streak": result["streak"],
            "values": [score.get("tai", score.get("points")) for score in result["scores"]],
            "payments": result["payments"]}
