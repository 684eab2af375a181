"""House rules (家規, API.md "House rules", RULES.md §8): changing an evening's.

- ``house_rules`` in ``POST /api/sessions`` and ``POST /api/score``
  (``api.house_rules_schemas``): checked by ``ledger.profile``, whose 422 names
  the key (``house_rules.values.big_four_winds``).
- ``PUT /api/sessions/<id>/house_rules``: the evening's house rules from now
  on; once hands are recorded, a correction that replays and re-scores them
  all and is kept in the audit trail.
"""
from flask import request
from flask.views import MethodView

from api import recording
from api.auth import IF_MATCH, SecuredBlueprint, client_label, current_session, expected_revision
from api.db import get_session
from api.errors import JsonErrorSchema
from api.house_rules_schemas import HOUSE_RULES_SPEC
from api.session_schemas import CLIENT_HEADER, SessionSchema
from ledger import store
from ledger.errors import InvalidRequest

blp = SecuredBlueprint("house_rules", __name__, url_prefix="/api/sessions",
                       description="An evening's house rules (家規)")


@blp.route("/<session_id:session_id>/house_rules")
class HouseRules(MethodView):
    @blp.secured
    @blp.response(200, SessionSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="A bad key or value (the field names it), or a hand the new rules make impossible")
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH], requestBody={
        "required": True, "content": {"application/json": {"schema": {**HOUSE_RULES_SPEC, "type": "object"}}}})
    def put(self, session_id):
        """Replace the evening's house rules; with hands recorded, every hand is replayed under them and audited."""
        db, session, rules = get_session(), current_session(), request.get_json()
        if not isinstance(rules, dict):
            raise InvalidRequest("the body must be the house rules, an object ({} for none)", "house_rules")
        recording.change_house_rules(db, session, rules, client_label(), expected=expected_revision())
        return recording.session_view(session, store.list_seat_changes(db, session))
