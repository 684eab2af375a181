"""Every error as JSON: ``{"code", "status", "message", ...}``, never a stack trace.

Validation (422) keeps field details in ``errors`` and names the fields in ``message``; the ledger's
refusals are 422 with ``field`` (English, but ``SwitchedOff`` in the reader's language); ``Stale`` is a
412 with the ``revision`` and the entries changed ``since``; ``Closed`` 409; ``Missing`` 404. The
services raise these; the handlers here, which read the request, word them.
"""
import marshmallow as ma
from flask import request
from flask_smorest.error_handler import ErrorSchema
from werkzeug.exceptions import (Conflict, HTTPException, NotFound, PreconditionFailed, RequestEntityTooLarge,
                                 UnprocessableEntity)

from api.http.language import request_language, say, says
from ledger.errors import LedgerError, SwitchedOff, Worded
from ledger.names import LookAlike
from words import ENGLISH, pattern_name, word

SCHEMA_LEVEL = "_schema"  # marshmallow's key for errors about a whole object
BODY = "json"  # webargs' location of the request body
PREFIXES = {400: "malformed", 422: "invalid"}  # api.http.language keys


class JsonErrorSchema(ErrorSchema):
    """The error body, as documented in the OpenAPI spec."""

    field = ma.fields.String(metadata={"description": "The offending field, when one is known"})


class StaleSchema(ErrorSchema):
    """A 412: what the session is now, so that a phone can show what another phone did."""

    revision = ma.fields.Integer(required=True, metadata={"description": "The session's revision now"})
    since = ma.fields.List(ma.fields.Dict(), required=True, metadata={
        "description": "The hands (as GET …/hands shows them) and seat changes recorded or changed after the "
                       "If-Match revision, in the order they were first changed"})


class Stale(Exception):
    """The session is no longer at the revision a change was made against (``If-Match``): nothing is written."""

    def __init__(self, revision: int, since: list[dict]):
        super().__init__(word(ENGLISH, "api.stale", revision=revision))
        self.revision = revision
        self.since = since


class Closed(Exception):
    """The evening is closed: a change is refused until it is reopened. ``key``: the message (``api.<key>``);
    a competition's table says its round has ended (``round_ended_table``)."""

    def __init__(self, key: str = "closed"):
        super().__init__(key)
        self.key = key


class Missing(LookupError):
    """What a path names is not there (404): ``key`` is its message (``api.http.language``) with ``values``."""

    def __init__(self, key: str, **values):
        super().__init__(key)
        self.key = key
        self.values = values


def http_error_response(error: HTTPException):
    """The JSON body, status and headers for an HTTP error."""
    data = getattr(error, "data", None) or {}
    details = data.get("errors", data.get("messages"))
    payload = {"code": error.code, "status": error.name, "message": _message(error, data, details)}
    if details:
        payload["errors"] = details
    field = data.get("field") or _only_field(details)
    if field:
        payload["field"] = field
    return payload, error.code, _headers(error, data)


def _only_field(details) -> str | None:
    """The one field a validation error is about, spelt as the ledger spells fields (``players[2]``).

    >>> _only_field({"json": {"players": {2: ["Too long."]}}})
    'players[2]'
    >>> _only_field({"json": {"name": ["Missing."], "ruleset": ["Missing."]}}) is None
    True
    """
    paths = {path for path, _ in field_errors(details)} if details else set()
    if len(paths) != 1:
        return None
    (path,) = paths
    return "".join(f"[{part}]" if part.isdigit() else f".{part}" for part in path).lstrip(".") or None


def ledger_error_response(error: LedgerError):
    """A 422 for a request the domain rejected; one the words word (``Worded``) in the reader's language."""
    status = UnprocessableEntity()
    message = say(error.key, **error.values) if isinstance(error, Worded) else error.message
    if isinstance(error, SwitchedOff):
        lang = request_language(ENGLISH)
        message = word(lang, "api.switched_off", name=pattern_name(error.ruleset, error.pattern, lang))
        if error.hand is not None:
            message = word(lang, "api.in_hand", number=error.hand, message=message)
    payload = {"code": status.code, "status": status.name, "message": message}
    if error.field is not None:
        payload["field"] = error.field
    return payload, status.code


def look_alike_response(error: LookAlike):
    """A 422 for a name that matches another without being it (``ledger.names``), in the reader's language."""
    status = UnprocessableEntity()
    return ({"code": status.code, "status": status.name, "field": error.field,
             "message": say("look_alike", name=error.name, existing=error.existing)}, status.code)


def stale_response(error: Stale):
    status = PreconditionFailed()
    return ({"code": status.code, "status": status.name, "message": say("stale", revision=error.revision),
             "revision": error.revision,
             "since": error.since}, status.code, {"ETag": f'"{error.revision}"'})


def closed_response(error: Closed):
    status = Conflict()
    return {"code": status.code, "status": status.name, "message": say(error.key)}, status.code


def missing_response(error: Missing):
    status = NotFound()
    return {"code": status.code, "status": status.name, "message": say(error.key, **error.values)}, status.code


def register_error_handlers(app) -> None:
    """Errors other than werkzeug's (those go through the flask-smorest Api)."""
    app.register_error_handler(LedgerError, ledger_error_response)
    app.register_error_handler(LookAlike, look_alike_response)
    app.register_error_handler(Stale, stale_response)
    app.register_error_handler(Closed, closed_response)
    app.register_error_handler(Missing, missing_response)


def _message(error: HTTPException, data: dict, details) -> str:
    if data.get("message"):
        return data["message"]
    if details:
        problems = "; ".join(_describe(path, text) for path, text in field_errors(details))
        return say(PREFIXES[error.code], problems=problems) if error.code in PREFIXES else f"{error.name}: {problems}"
    if isinstance(error, RequestEntityTooLarge):
        maximum = request.max_content_length
        if getattr(request, "document_limit", False):  # an import, allowed more than a request (api.http.limits)
            return say("too_large_document", limit=maximum, megabytes=f"{maximum / 2**20:.3g}")
        return say("too_large", limit=maximum)
    if says(f"http_{error.code}") and error.description == type(error).description:  # werkzeug's own words
        return say(f"http_{error.code}")
    return error.description or error.name


def _describe(path: tuple, text: str) -> str:
    return f"{'.'.join(path)}: {text}" if path else text


def field_errors(details, path=()):
    """Flatten webargs/marshmallow error details into (field path, text) pairs, without the body's location
    and marshmallow's ``_schema`` key.

    >>> list(field_errors({"json": {"hand": {"melds": {0: {"kind": ["Not valid."]}}}}}))
    [(('hand', 'melds', '0', 'kind'), 'Not valid.')]
    >>> list(field_errors({"query": {"page": ["Not a valid integer."]}}))
    [(('query', 'page'), 'Not a valid integer.')]
    >>> list(field_errors({"json": {"_schema": ["Unknown winner.", "Bad flag."]}}))
    [((), 'Unknown winner. Bad flag.')]
    """
    if isinstance(details, dict):
        for key, value in details.items():
            skip = key == SCHEMA_LEVEL or (key == BODY and not path)
            yield from field_errors(value, path if skip else path + (str(key),))
    elif isinstance(details, (list, tuple)):
        texts = [item for item in details if isinstance(item, str)]
        if texts:
            yield path, " ".join(texts)
        for item in details:
            if not isinstance(item, str):
                yield from field_errors(item, path)
    else:
        yield path, str(details)


def _headers(error: HTTPException, data: dict) -> dict:
    headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    return headers
