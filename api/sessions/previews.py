"""Previews (試算): what a hand, a void or a correction would do, worked out in memory and never written.

A table wants to see the money before it taps Record, and which later hands change before it voids or
corrects one. Previews run the code that records (``api.sessions.service``), so what is shown is what
would be stored; nothing here takes the session's lock or writes a row.
"""
from flask import request
from flask.views import MethodView

from api.http.auth import SecuredBlueprint, current_session
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.language import in_reader_script
from api.http.limits import limits
from api.sessions import service
from api.sessions.schemas import (INVALID_HAND, MAX_NUMBER, ChangePreviewSchema, ChangeRequestSchema,
                                  HandBodySchema, HandPreviewSchema)

blp = SecuredBlueprint("preview", __name__, url_prefix="/api/sessions",
                       description="Previews: a hand, a void or a correction worked out without recording it")


@blp.route("/<session_id:session_id>/hands/preview")
class HandPreview(MethodView):
    @blp.secured(changes=False)
    @blp.arguments(HandBodySchema())
    @blp.response(200, HandPreviewSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=INVALID_HAND)
    def post(self, body, session_id):
        """What a hand would pay if recorded now (the Win form's preview); records nothing."""
        request.require_json()
        session = current_session()
        return in_reader_script(service.preview_hand(session, body, limits()), session.ruleset)


@blp.route(f"/<session_id:session_id>/hands/<int(min=1, max={MAX_NUMBER}):number>/preview")
class ChangePreview(MethodView):
    @blp.secured(changes=False)
    @blp.arguments(ChangeRequestSchema())
    @blp.response(200, ChangePreviewSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A later hand would no longer be valid")
    def post(self, change, session_id, number):
        """Which hands a void or correction would change, and the totals after; changes nothing."""
        body = None if change.get("void") else change["body"]
        return service.preview_change(get_db(), current_session(), number, body, limits())
