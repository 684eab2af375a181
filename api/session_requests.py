"""What every request on ``/api/sessions…`` goes through besides its view.

- A session id in the path must look like one (``SESSION_ID``), or the
  request is a 404 before anything reads the database: PostgreSQL refuses a
  NUL in a query parameter (500, even before the token check), and no
  lookup is needed to know that ``../x`` or a 10 KB id is no session. Ids
  are 40 hex digits; sessions created before ids were hex have URL-safe
  base64 ids, which still match.
- Every answer says ``Cache-Control: no-store``: it carries session data
  (totals, hands, the audit, reports, an export, a new token) that no shared
  cache or browser history should keep.
"""
import re

from flask import request
from flask_smorest import abort

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the id column holds at most 64 characters
SESSION_BLUEPRINTS = ("sessions", "hands", "reports", "backup")


def check_session_id(endpoint: str | None, values: dict | None) -> None:
    """404 for a ``session_id`` that no session can have (a url_value_preprocessor)."""
    session_id = (values or {}).get("session_id")
    if session_id is not None and not SESSION_ID.fullmatch(session_id):
        abort(404, message="No such session: a session id is 40 hexadecimal digits.")


def no_store(response):
    """``Cache-Control: no-store`` on every answer about a session (an after_request hook)."""
    if request.blueprint in SESSION_BLUEPRINTS:
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app) -> None:
    app.url_value_preprocessor(check_session_id)
    app.after_request(no_store)
