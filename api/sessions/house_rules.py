"""House rules (家規, API.md "House rules", RULES.md §8): changing an evening's.

- ``house_rules`` in ``POST /api/sessions`` and ``POST /api/score``
  (``api.rules.schemas``): checked by ``ledger.house_rules``, whose 422 names
  the key (``house_rules.values.big_four_winds``).
- ``PUT /api/sessions/<id>/house_rules``: the evening's house rules from now
  on; once hands are recorded, a correction that replays and re-scores them
  all and is kept in the audit trail.
"""
from flask import request
from flask.views import MethodView

from api.http.auth import CLIENT_HEADER, IF_MATCH, SecuredBlueprint, caller
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import limits
from api.rules.schemas import HOUSE_RULES_SPEC
from api.sessions import service
from api.sessions.schemas import SessionSchema

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
        return service.change_house_rules(get_db(), session_id, request.get_json(), caller(), limits())
