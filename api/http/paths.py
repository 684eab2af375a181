"""What every request on ``/api/sessions…``, ``/api/groups…`` and ``/api/competitions…`` goes through besides its route.

An id in a path must look like one, or no route matches (404) and nothing reads the database:
PostgreSQL refuses a NUL in a query parameter, and no lookup is needed to know ``../x`` is no session.
Every answer says ``Cache-Control: no-store``: it carries data no shared cache or history should keep.
"""
from flask import request
from werkzeug.routing import BaseConverter

# 40 hex digits (api.http.auth.new_id); sessions created before ids were hex have 43 URL-safe base64 ones.
SESSION_ID_PATTERN = r"[0-9a-f]{40}|[A-Za-z0-9_-]{43}"
GROUP_ID_PATTERN = r"[0-9a-f]{40}"  # groups came after ids were hex
COMPETITION_ID_PATTERN = GROUP_ID_PATTERN
NO_STORE_BLUEPRINTS = ("sessions", "hands", "reports", "backup", "groups", "group_backup", "group_reports",
                       "competitions")


class SessionIdConverter(BaseConverter):
    """``<session_id:…>``: only what a session id can be."""

    regex = f"(?:{SESSION_ID_PATTERN})"


class GroupIdConverter(BaseConverter):
    """``<group_id:…>``: only what a group id can be."""

    regex = f"(?:{GROUP_ID_PATTERN})"


class CompetitionIdConverter(BaseConverter):
    """``<competition_id:…>``: only what a competition id can be."""

    regex = f"(?:{COMPETITION_ID_PATTERN})"


def session_id_schema(converter: SessionIdConverter) -> dict:
    """The path parameter as the OpenAPI document states it."""
    return {"type": "string", "pattern": f"^(?:{SESSION_ID_PATTERN})$",
            "description": "The id `POST /api/sessions` returned: 40 hexadecimal digits"}


def group_id_schema(converter: GroupIdConverter) -> dict:
    """The path parameter as the OpenAPI document states it."""
    return {"type": "string", "pattern": f"^(?:{GROUP_ID_PATTERN})$",
            "description": "The id `POST /api/groups` returned: 40 hexadecimal digits"}


def competition_id_schema(converter: CompetitionIdConverter) -> dict:
    return {"type": "string", "pattern": f"^(?:{COMPETITION_ID_PATTERN})$",
            "description": "The id `POST /api/competitions` returned: 40 hexadecimal digits"}


def no_store(response):
    """``Cache-Control: no-store`` on every answer about a session or a group (an after_request hook)."""
    if request.blueprint in NO_STORE_BLUEPRINTS:
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app) -> None:
    app.url_map.converters["session_id"] = SessionIdConverter
    app.url_map.converters["group_id"] = GroupIdConverter
    app.url_map.converters["competition_id"] = CompetitionIdConverter
    app.after_request(no_store)


def init_api(api) -> None:
    """Document the converters' paths (before the blueprints are registered)."""
    api.register_converter(SessionIdConverter, session_id_schema)
    api.register_converter(GroupIdConverter, group_id_schema)
    api.register_converter(CompetitionIdConverter, competition_id_schema)
