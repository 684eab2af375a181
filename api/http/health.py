"""``GET /api/health``: the service is up and its database answers.

While the database does not answer: 503 with ``Retry-After`` (``DATABASE_RETRY_AFTER``), as every other
request answers then (``api.http.unavailable``), so that a load balancer or a monitor knows when to ask again.
"""
import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from sqlalchemy.exc import SQLAlchemyError

from api.http.db import get_db
from api.http.unavailable import MESSAGE
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
            retry_after = current_app.config["DATABASE_RETRY_AFTER"]
            abort(503, message=MESSAGE.format(retry_after), headers={"Retry-After": str(retry_after)})
        return {"status": "ok"}
