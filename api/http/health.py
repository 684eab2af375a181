"""``GET /api/health``: the service is up and its database answers."""
import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from sqlalchemy.exc import SQLAlchemyError

from api.http.db import get_db
from ledger import store

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
            store.ping(get_db())
        except SQLAlchemyError:
            abort(503, message="The database does not answer.")
        return {"status": "ok"}
