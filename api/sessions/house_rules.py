"""House rules (家規, API.md "House rules", RULES.md §8): changing an evening's.

``POST`` is "we play differently from now on": from the next hand, the hands before keeping theirs.
``PUT`` is "we set them up wrong": from the start, replaying and re-scoring every hand, audited.
``…/preview`` shows that correction's money before the table confirms, never written.
"""
from flask import request
from flask.views import MethodView

from api.http.auth import CLIENT_HEADER, IF_MATCH, SecuredBlueprint, caller, current_session
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.language import in_reader_script
from api.http.limits import limits
from api.rules.schemas import HOUSE_RULES_SPEC
from api.sessions import service
from api.sessions.schemas import (IDEMPOTENCY_HEADER, HouseRulesChangeSchema, HouseRulesCorrectedSchema,
                                  HouseRulesPreviewSchema)

blp = SecuredBlueprint("house_rules", __name__, url_prefix="/api/sessions",
                       description="An evening's house rules (家規)")

DOCUMENT = {"required": True, "content": {"application/json": {"schema": {**HOUSE_RULES_SPEC, "type": "object"}}}}


@blp.route("/<session_id:session_id>/house_rules")
class HouseRules(MethodView):
    @blp.secured(owner=True)
    @blp.response(201, HouseRulesChangeSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="A bad key or value (the field names it), or the rules in force already")
    @blp.doc(parameters=[IDEMPOTENCY_HEADER, CLIENT_HEADER, IF_MATCH], requestBody=DOCUMENT)
    def post(self, session_id):
        """From the next hand on the table plays under these house rules; the hands before keep theirs. An entry at
        the end of the evening, like a seat change, audited as ``house_rules_from``."""
        return service.change_house_rules_from_next_hand(get_db(), session_id, request.get_json(), caller(),
                                                         limits())

    @blp.secured(owner=True)
    @blp.response(200, HouseRulesCorrectedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="A bad key or value (the field names it), or a hand the new rules make impossible")
    @blp.doc(parameters=[CLIENT_HEADER, IF_MATCH], requestBody=DOCUMENT)
    def put(self, session_id):
        """Correct the evening's house rules from the start: every hand is replayed under them and audited, and
        every change made from a hand on is replaced (listed in ``replaced``)."""
        return service.change_house_rules(get_db(), session_id, request.get_json(), caller(), limits())


@blp.route("/<session_id:session_id>/house_rules/preview")
class HouseRulesPreview(MethodView):
    @blp.secured(changes=False)
    @blp.response(200, HouseRulesPreviewSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="A bad key or value (the field names it), or a hand the new rules make impossible")
    @blp.doc(requestBody=DOCUMENT)
    def post(self, session_id):
        """What correcting the whole evening to these house rules (``PUT``) would change: every hand whose money
        moves, before and after, and the totals; records nothing."""
        session = current_session()
        return in_reader_script(service.preview_house_rules(get_db(), session, request.get_json(), limits()),
                                session.ruleset)
