"""What every request on ``/api/sessions…`` goes through besides its view.

- A session id in a path must look like one, or the URL matches no route
  (404) and nothing reads the database: PostgreSQL refuses a NUL in a query
  parameter (it was a 500, even before the token check), and no lookup is
  needed to know that ``import``, ``../x`` or a 10 KB id is no session.
  Routes write ``<session_id:session_id>`` (``SessionIdConverter``); the
  OpenAPI document gives the pattern.
- Every answer says ``Cache-Control: no-store``: it carries session data
  (totals, hands, the audit, reports, an export, a new token) that no shared
  cache or browser history should keep.
"""
from flask import request
from werkzeug.routing import BaseConverter

# 40 hex digits (api.auth.new_session_id); sessions created before ids were hex have 43 URL-safe base64 ones.
SESSION_ID_PATTERN = r"[0-9a-f]{40}|[A-Za-z0-9_-]{43}"
SESSION_BLUEPRINTS = ("sessions", "hands", "reports", "backup", "groups", "group_backup", "group_reports")


class SessionIdConverter(BaseConverter):
    """``<session_id:…>``: only what a session id can be."""

    regex = f"(?:{SESSION_ID_PATTERN})"


def session_id_schema(converter: SessionIdConverter) -> dict:
    """The path parameter as the OpenAPI document states it."""
    return {"type": "string", "pattern": f"^(?:{SESSION_ID_PATTERN})$",
            "description": "The id `POST /api/sessions` returned: 40 hexadecimal digits"}


def no_store(response):
    """``Cache-Control: no-store`` on every answer about a session (an after_request hook)."""
    if request.blueprint in SESSION_BLUEPRINTS:
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app) -> None:
    app.url_map.converters["session_id"] = SessionIdConverter
    app.after_request(no_store)


def init_api(api) -> None:
    """Document the converter's paths (before the blueprints are registered)."""
    api.register_converter(SessionIdConverter, session_id_schema)
