"""``GET /api/health``: the service is up and its database answers."""
import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from api.db import get_session

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Service health")


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"description": "Always `ok` when healthy"})


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, description="The database does not answer")
    def get(self):
        """Report whether the service and its database work."""
        try:
            get_session().execute(text("SELECT 1"))
        except SQLAlchemyError:
            abort(503, message="The database does not answer.")
        return {"status": "ok"}
