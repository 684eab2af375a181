"""Bearer tokens (憑證): who may read or change an evening or a group.

Creating a session returns a random token once; the database keeps only its
SHA-256, compared in constant time. A request on a session is refused:

- without ``Authorization: Bearer <token>``: ``401`` with ``WWW-Authenticate``;
- for an unknown session id: ``404``;
- with a token the session replaced (``POST …/tokens``): ``401``, "ask for the new link";
- with a token that does not open this session: ``403``, and never the data;
- with the read-only token (``read_token``) on a change: ``403``;
- on a competition's table, with the table's own write token on what is its organiser's (``OWNER``: house
  rules, seats, new links, closing, reopening): ``403``; the competition's organiser token opens the table
  with all of it (``ORGANIZER``).

A session has two tokens: the write token opens everything, the read-only
token every read (``access`` is ``WRITE`` or ``READ``). An evening of a group
is also opened by the group's tokens: its member and admin tokens as the
write token, its read-only token as the read-only one.

A group has three tokens (``GROUP_LEVELS``: admin, member, read), checked
the same way, except that a token that is none of them is a 401 (the group's
links carry no other token to be told apart from).

**Who checks what.** A route's decorator (``SecuredBlueprint.secured``,
``GroupBlueprint.group_token``) checks the token before anything else, the
body included, with a plain read; for a change it then ends that read and
takes the request's whole body, holding no connection and no lock. The
resource's service then begins the write, reads the session or group again
holding its lock and checks the token against the locked row
(``evening_access``, ``group_access``: new links may have been issued in
between), changes it and commits. What the service needs of the request it
gets as a ``Caller``.

``SecuredBlueprint`` is a flask-smorest Blueprint (``api.http.extensions.Blueprint``) whose operations are
documented as needing the bearer token (``bearerAuth`` in the OpenAPI spec).
"""
import base64
import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import NamedTuple

from flask import g, request
from flask_smorest import abort

from api.http.db import get_db
from api.http.errors import JsonErrorSchema, StaleSchema
from api.http.extensions import Blueprint
from api.http.language import level_words, say
from api.http.text import bad_character, normal_name
from ledger import competition_store, group_store, store

TOKEN_BYTES = 32
ID_BYTES = 20
SCHEME_NAME = "bearerAuth"
SECURITY_SCHEME = {"type": "http", "scheme": "bearer",
                   "description": "The token returned once by `POST /api/sessions`"}
CHALLENGE = 'Bearer realm="taizhang"'
READS = ("GET", "HEAD", "OPTIONS")
ERRORS = {401: "No bearer token, or one this session has replaced",
          403: "A token that does not open this session, or a read-only token on a change",
          404: "Unknown session (or hand)"}
GROUP_ERRORS = {401: "No bearer token, or one that is none of the group's (or was replaced)",
                403: "A token of the group below the level this needs (read < member < admin)",
                404: "Unknown group (or member, payment, evening of it)"}
WRITE, READ = "write", "read"
OWNER = "owner"  # what an evening's write token needs beyond recording: on a competition's table, its organiser's
ORGANIZER = "organizer"  # the level of a competition's organiser token on each of its tables
ADMIN, MEMBER = "admin", "member"
GROUP_LEVELS = (READ, MEMBER, ADMIN)  # each can do what the one before it can
TOKEN_PARAMETER = {"in": "query", "name": "token", "required": False, "schema": {"type": "string"},
                   "description": "The bearer token, for clients that cannot send headers (EventSource)"}
TOKEN_QUERY = {"in": "query", "name": "token", "required": False, "schema": {"type": "string"},
               "description": "The bearer token, for downloads opened as links"}
IF_MATCH = {"in": "header", "name": "If-Match", "required": False,
            "schema": {"type": "string", "pattern": '^(\\*|"[0-9]{1,10}")$'},
            "description": 'The revision the change was made against, as `"n"` (the session\'s ETag): '
                           "412 with what changed since if the session has moved on"}
CLIENT_HEADER = {
    "in": "header", "name": "X-Client", "required": False, "schema": {"type": "string"},
    "description": "A label for who is entering (kept with the entry and in the audit trail, "
                   f"cut to its first {store.CLIENT_KEPT} characters)",
}
STALE = "The session has moved on since the If-Match revision: `revision` and the entries changed `since`"
CLOSED = "The evening is closed: reopen it first"


class Caller(NamedTuple):
    """What a service needs of the request that asks for a change: no service reads the request itself.

    ``token``: the bearer token, checked again against the locked row;
    ``who``: the ``X-Client`` label entries and audits keep; ``expected``:
    the revision of ``If-Match`` (None: any); ``key``: the ``Idempotency-Key``;
    ``level``, ``role`` and ``at``: what the token was found to be on the locked evening; at a competition's
    table in what part its audit lines name it (``organizer``, ``table N of round R``), and the table and
    its round.
    """

    token: str
    who: str
    expected: int | None = None
    key: str | None = None
    level: str | None = None
    role: str | None = None
    at: competition_store.TablePlace | None = None


def caller() -> Caller:
    """The current request as a ``Caller`` (its token, ``X-Client``, ``If-Match`` and ``Idempotency-Key``)."""
    return Caller(bearer_token(), client_label(), expected_revision(), request.headers.get("Idempotency-Key"))


def new_token() -> str:
    """A fresh unguessable bearer token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_id() -> str:
    """A fresh unguessable id of a session or a group (160 bits), in hex.

    Hex, so an id never starts with ``-`` and reads as an option to
    ``flask report`` or ``flask backup``.
    """
    return secrets.token_hex(ID_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of ``token``: what the database keeps.

    >>> token_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def table_tokens(organizer_token: str, session_id: str, links: int = 0) -> tuple[str, str]:
    """The write and read-only tokens of the table whose evening is ``session_id``, after ``links`` renewals.

    >>> write, read = table_tokens("organiser", "ab" * 20)
    >>> write != read and table_tokens("organiser", "ab" * 20) == (write, read) != table_tokens("organiser", "ab" * 20, 1)
    True
    """
    renewal = f":{links}" if links else ""
    return tuple(base64.urlsafe_b64encode(hmac.new(organizer_token.encode(), f"{kind}:{session_id}{renewal}".encode(),
                                                   hashlib.sha256).digest()).rstrip(b"=").decode()
                 for kind in ("write", "read"))


def bearer_token(in_query: bool = False) -> str:
    """The bearer token of the current request (or its ``?token=``, if ``in_query``); 401 when there is none."""
    if in_query and request.args.get("token", "").strip():
        return request.args["token"].strip()
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, message=say("token_missing"),
              headers={"WWW-Authenticate": CHALLENGE})
    return token.strip()


# -- evenings ---------------------------------------------------------------------


def evening_access(db, session_id: str, token: str, session: store.SessionRow | None, group_id: str | None,
                   need: str = READ) -> str:
    """``WRITE``, ``READ`` or (a competition's table) ``ORGANIZER``: what ``token`` may do on the session (of
    group ``group_id``, if any); 404, 401 (a replaced token) or 403 if nothing, or less than ``need``."""
    if session is None:
        abort(404, message=say("no_session", session_id=session_id))
    level = _level(token, session) or _group_level(db, token, group_id) or _organizer_level(db, token, session)
    if level is None:
        hashed = token_hash(token)
        if store.is_retired_token(db, session_id, hashed) or (
                group_id is not None and group_store.is_retired_group_token(db, group_id, hashed)):
            abort(401, message=say("token_replaced"),
                  headers={"WWW-Authenticate": CHALLENGE})
        abort(403, message=say("wrong_token"))
    if need != READ and level == READ:
        abort(403, message=say("read_only"))
    if need == OWNER and level != ORGANIZER and session.competition_id is not None:
        abort(403, message=say("table_organizer_only"))
    return level


def _organizer_level(db, token: str, session: store.SessionRow) -> str | None:
    """``ORGANIZER`` if the evening is a competition's table and ``token`` is that competition's organiser token."""
    if session.competition_id is None:
        return None
    organizer_hash = competition_store.organizer_token_hash(db, session.competition_id)
    return ORGANIZER if organizer_hash is not None and token_matches(token, organizer_hash) else None


def opens(db, token: str, session: store.SessionRow) -> bool:
    """Whether ``token`` is one of the session's two tokens now, a token of its group, or its competition's
    organiser token."""
    return (_level(token, session) or _group_level_on_evening(db, token, session.id)
            or _organizer_level(db, token, session)) is not None


def _group_level_on_evening(db, token: str, session_id: str) -> str | None:
    """What a token of the evening's group may do on it: ``WRITE`` (member, admin), ``READ``, or None."""
    return _evening_level(token, group_store.group_of_session(db, session_id))


def _group_level(db, token: str, group_id: str | None) -> str | None:
    """As ``_group_level_on_evening``, the evening's group known by its id (None: no group)."""
    return None if group_id is None else _evening_level(token, group_store.find_group(db, group_id))


def _evening_level(token: str, group: group_store.GroupRow | None) -> str | None:
    level = None if group is None else group_level(token, group)
    return None if level is None else READ if level == READ else WRITE


def _level(token: str, session: store.SessionRow) -> str | None:
    """``WRITE`` for the write token, ``READ`` for the read-only one, else None (compared in constant time)."""
    if token_matches(token, session.token_hash):
        return WRITE
    if session.read_token_hash is not None and token_matches(token, session.read_token_hash):
        return READ
    return None


# -- groups -----------------------------------------------------------------------


def group_level(token: str, group: group_store.GroupRow) -> str | None:
    """``ADMIN``, ``MEMBER`` or ``READ``: which of the group's tokens ``token`` is, else None (constant time)."""
    hashed = token_hash(token)
    found = None
    for level, stored in ((ADMIN, group.admin_token_hash), (MEMBER, group.member_token_hash),
                          (READ, group.read_token_hash)):
        if hmac.compare_digest(hashed, stored):
            found = level
    return found


def group_access(token: str, group: group_store.GroupRow | None, group_id: str, need: str) -> str:
    """The level of ``token`` on the group, if at least ``need``; else 404 (no group), 401 (none of its
    tokens) or 403 (a lower level)."""
    if group is None:
        abort(404, message=say("no_group", group_id=group_id))
    level = group_level(token, group)
    if level is None:
        abort(401, message=say("wrong_group_token"),
              headers={"WWW-Authenticate": CHALLENGE})
    if GROUP_LEVELS.index(level) < GROUP_LEVELS.index(need):
        abort(403, message=say("group_level", need=level_words(need), level=level_words(level)))
    return level


# -- the request ------------------------------------------------------------------


def expected_revision() -> int | None:
    """The revision named by the request's ``If-Match: "n"``; None without one (or ``*``); 422 if unreadable."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    tags = request.if_match.as_set()  # an empty tag ("") is None here
    tag = next(iter(tags)) if len(tags) == 1 else None
    if not isinstance(tag, str) or not tag.isascii() or not tag.isdigit() or len(tag) > 10:
        abort(422, message=say("if_match"), field="If-Match")
    return int(tag)


def client_label() -> str:
    """Who is entering, as the client says in ``X-Client`` (a label, not a proof); else ``unknown``.

    The header's bytes arrive decoded as latin-1 (WSGI's rule for headers): they
    are read again as the UTF-8 phones send, so ``阿明`` is kept as 阿明. A label
    that is not UTF-8 or holds a character text may not (``api.http.text``) is a 422;
    one is normalised as a name is, and cut to its first ``CLIENT_KEPT`` characters.
    """
    sent = request.headers.get("X-Client", "")
    try:
        label = sent.encode("latin-1").decode("utf-8")
    except UnicodeError:
        abort(422, message="X-Client must be text in UTF-8", field="X-Client")
    problem = bad_character(label)
    if problem is not None:
        abort(422, message=f"X-Client holds {problem}, which text may not contain", field="X-Client")
    return normal_name(label)[:store.CLIENT_KEPT] or store.UNKNOWN_CLIENT


def end_read_and_take_body() -> None:
    """Before a change: end the token's read, then take the request's whole body.

    The whole body before the service takes its lock, and with no database
    connection: a client sending it slowly (``api.http.deadline`` bounds how
    slowly) holds its own request, not the row's lock (on SQLite the
    database's one write lock) nor one of the pool's connections.
    """
    get_db().rollback()  # the read ends and its connection goes back to the pool
    request.get_data()


def current_session() -> store.SessionRow:
    """The session of a ``SecuredBlueprint.secured`` route, its token checked."""
    return g.authorized_session


def current_group_id() -> str | None:
    """The id of the group the session of a ``SecuredBlueprint.secured`` route belongs to (None: standalone)."""
    return g.group_id


def current_access() -> str:
    """What the token of a secured route may do: ``WRITE`` or ``READ`` on an evening, a level on a group."""
    return g.access


def current_group() -> group_store.GroupRow:
    """The group of a ``GroupBlueprint.group_token`` route, its token checked."""
    return g.opened


class TokenCheck(NamedTuple):
    """How the routes of a resource with tokens of its own (a group, a competition) check them: the path
    parameter naming it, its lookup (one call, a plain read), the check of a token on what was found
    (``group_access``: the level, else 404/401/403) and the errors to document."""

    parameter: str
    find: Callable
    access: Callable[[str, object, str, str], str]
    errors: dict


GROUP_TOKEN = TokenCheck("group_id", group_store.find_group, group_access, GROUP_ERRORS)


class SecuredBlueprint(Blueprint):
    """A Blueprint whose every operation needs the session's bearer token, as documented."""

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        if SCHEME_NAME not in spec.components.security_schemes:
            spec.components.security_scheme(SCHEME_NAME, SECURITY_SCHEME)
        super().register_views_in_doc(api, app, spec, name=name, parameters=parameters)

    def secured(self, function=None, *, changes: bool | None = None, in_query: bool = False, owner: bool = False):
        """Check the token before anything else (even the body) and document it, with 401/403/404.

        The route (with a ``session_id`` path parameter) then finds the
        session in ``current_session()``. A route that changes the session
        needs the write token, may send ``If-Match`` and answers with the new
        revision as ``ETag``: the service locks the same row in the request's
        database session, so the object read here is the one it refreshed and
        changed. ``changes``: whether the route changes the session; by
        default, any method but GET, HEAD and OPTIONS does (a preview POSTs
        and changes nothing). ``in_query``: the token may also come as
        ``?token=`` (the event stream). ``owner``: a change that is an evening owner's, which on a
        competition's table its own token may not make (``OWNER``).
        """
        if function is None:
            return functools.partial(self.secured, changes=changes, in_query=in_query, owner=owner)
        changing_view = function.__name__.upper() not in READS if changes is None else changes

        @functools.wraps(function)
        def checked(*args, **kwargs):
            changing = request.method not in READS if changes is None else changes
            session_id = kwargs["session_id"]
            db = get_db()
            session, g.group_id = group_store.find_session_and_group(db, session_id)
            g.access = evening_access(db, session_id, bearer_token(in_query), session, g.group_id,
                                      (OWNER if owner else WRITE) if changing else READ)
            g.authorized_session = session
            if changing:
                end_read_and_take_body()
            response = function(*args, **kwargs)
            if changing:
                response.set_etag(str(session.revision))
            return response

        documented = self._document(checked, ERRORS)
        if in_query:
            documented = self.doc(parameters=[TOKEN_PARAMETER])(documented)
        if changing_view:  # a MethodView's post, put, delete that changes the session (its If-Match: IF_MATCH)
            documented = self.alt_response(412, schema=StaleSchema, description=STALE)(documented)
            documented = self.alt_response(409, schema=JsonErrorSchema, description=CLOSED)(documented)
        return documented

    def token(self, check: TokenCheck, need: str, *, changes: bool | None = None, in_query: bool = False):
        """Check the resource's token (level ``need`` or above) before anything else, and document it.

        The route then finds what it opened in ``current_group()`` (``current_competition()``). For a route
        that changes something (by default any method but GET) the read then ends and the body is taken; its
        service locks the row and checks the token again. ``in_query``: the token may come as ``?token=``
        (downloads and streams).
        """

        def decorate(function):
            changing = function.__name__.upper() != "GET" if changes is None else changes

            @functools.wraps(function)
            def checked(*args, **kwargs):
                key = kwargs[check.parameter]
                found = check.find(get_db(), key)
                g.access = check.access(bearer_token(in_query), found, key, need)
                g.opened = found
                if changing:
                    end_read_and_take_body()
                return function(*args, **kwargs)

            documented = self._document(checked, check.errors)
            if changing:  # (a manual list of parameters replaces those of a query's arguments: not on reads)
                documented = self.doc(parameters=[CLIENT_HEADER])(documented)
            return documented

        return decorate

    def _document(self, view, errors: dict):
        documented = self.doc(security=[{SCHEME_NAME: []}])(view)
        for status, description in errors.items():
            documented = self.alt_response(status, schema=JsonErrorSchema, description=description)(documented)
        return documented


class GroupBlueprint(SecuredBlueprint):
    """A Blueprint of ``/api/groups/<group_id>…`` whose operations need one of the group's tokens."""

    def group_token(self, need: str = READ, *, changes: bool | None = None, in_query: bool = False):
        """``token`` with the group's tokens (``GROUP_LEVELS``)."""
        return self.token(GROUP_TOKEN, need, changes=changes, in_query=in_query)
