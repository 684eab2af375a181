"""Bearer tokens (憑證): who may read or change an evening or a group.

The database keeps only a token's SHA-256, compared in constant time. No token: 401; unknown id: 404; a
replaced token: 401 "ask for the new link"; a token that does not open it, or a read-only one on a
change: 403, never the data. A group's tokens open its evenings too; a competition's table leaves what
is its organiser's (``OWNER``) to the organiser's token. A route's decorator checks the token before
anything else with a plain read; for a change it ends that read and takes the whole body, holding no
connection or lock; the service then locks the row and checks the token again (new links may have
been issued in between), getting what it needs of the request as a ``Caller``.
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

from api.http.db import get_db, read_one
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

    ``token`` is checked again on the locked row; ``who`` is the ``X-Client`` label; ``expected`` the
    ``If-Match`` revision; ``level``, ``role`` and ``at`` what the token was found to be there, ``earlier``
    what its ``Idempotency-Key`` recorded before (both read with the lock)."""

    token: str
    who: str
    expected: int | None = None
    key: str | None = None
    level: str | None = None
    role: str | None = None
    at: competition_store.TablePlace | None = None
    earlier: store.KeyedEntry | None = None


def caller() -> Caller:
    """The current request as a ``Caller`` (its token, ``X-Client``, ``If-Match`` and ``Idempotency-Key``)."""
    return Caller(bearer_token(), client_label(), expected_revision(), request.headers.get("Idempotency-Key"))


def new_token() -> str:
    """A fresh unguessable bearer token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_id() -> str:
    """A fresh unguessable id (160 bits) in hex, so it never starts with ``-`` and reads as a CLI option."""
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
    return _granted(db, session_id, token, level, group_id, session.competition_id, need)


def access_by_keys(session_id: str, token: str, keys: group_store.EveningAccess | None, need: str = READ) -> str:
    """As ``evening_access``, from the hashes of ``group_store.evening_access_keys``: no evening read (the
    request's session opened only to tell a replaced token)."""
    if keys is None:
        abort(404, message=say("no_session", session_id=session_id))
    hashed = token_hash(token)
    level = (_own_level(hashed, keys.token_hash, keys.read_token_hash)
             or _as_evening_level(_hash_level(hashed, keys.admin_hash, keys.member_hash, keys.group_read_hash))
             or (ORGANIZER if _same(hashed, keys.organizer_hash) else None))
    return _granted(get_db() if level is None else None, session_id, token, level, keys.group_id,
                    keys.competition_id, need)


def _granted(db, session_id: str, token: str, level: str | None, group_id: str | None, competition_id: str | None,
             need: str) -> str:
    """``level`` if it is enough for ``need``; else 401 (a replaced token) or 403."""
    if level is None:
        hashed = token_hash(token)
        if store.is_retired_token(db, session_id, hashed) or (
                group_id is not None and group_store.is_retired_group_token(db, group_id, hashed)):
            abort(401, message=say("token_replaced"),
                  headers={"WWW-Authenticate": CHALLENGE})
        abort(403, message=say("wrong_token"))
    if need != READ and level == READ:
        abort(403, message=say("read_only"))
    if need == OWNER and level != ORGANIZER and competition_id is not None:
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
    return None if group is None else _as_evening_level(group_level(token, group))


def _as_evening_level(level: str | None) -> str | None:
    """A group's level as what it opens of its evenings: ``READ`` for its read-only token, else ``WRITE``."""
    return None if level is None else READ if level == READ else WRITE


def _level(token: str, session: store.SessionRow) -> str | None:
    """``WRITE`` for the write token, ``READ`` for the read-only one, else None (compared in constant time)."""
    return _own_level(token_hash(token), session.token_hash, session.read_token_hash)


def _own_level(hashed: str, write_hash: str, read_hash: str | None) -> str | None:
    if _same(hashed, write_hash):
        return WRITE
    return READ if _same(hashed, read_hash) else None


def _same(hashed: str, stored: str | None) -> bool:
    """Whether a token's hash is ``stored`` (None: no such token), compared in constant time."""
    return stored is not None and hmac.compare_digest(hashed, stored)


# -- groups -----------------------------------------------------------------------


def group_level(token: str, group: group_store.GroupRow) -> str | None:
    """``ADMIN``, ``MEMBER`` or ``READ``: which of the group's tokens ``token`` is, else None (constant time)."""
    return _hash_level(token_hash(token), group.admin_token_hash, group.member_token_hash, group.read_token_hash)


def _hash_level(hashed: str, admin_hash: str | None, member_hash: str | None, read_hash: str | None) -> str | None:
    found = None
    for level, stored in ((ADMIN, admin_hash), (MEMBER, member_hash), (READ, read_hash)):
        if _same(hashed, stored):  # every one compared: the time does not say which
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
    """Who is entering, as ``X-Client`` says (a label, not a proof); else ``unknown``.

    Header bytes arrive as latin-1 (WSGI) and are read again as UTF-8; a label that is not, or holds what
    a name may not, is a 422; kept normalised, its first ``CLIENT_KEPT`` characters."""
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
    """Before a change: end the token's read, then take the whole body, so a slow client holds its own request,
    not the row's lock (SQLite's one write lock) nor a pooled connection."""
    get_db().rollback()  # the read ends and its connection goes back to the pool
    request.get_data()


def current_session() -> store.SessionRow:
    """The session of a ``SecuredBlueprint.secured`` route, its token checked: read when a route first asks
    (after a change, the row its service locked and changed, still in the request's database session:
    ``group_store.find_session``)."""
    if "authorized_session" not in g:
        g.authorized_session = store.find_session(get_db(), g.evening.id)
    return g.authorized_session


def current_evening() -> group_store.EveningAccess:
    """What the token check read of the session of a ``SecuredBlueprint.secured`` route (its revision,
    rule set, group, competition), without its row."""
    return g.evening


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

        ``changes``: the route changes the session (default: any method but GET, HEAD, OPTIONS), so it needs the
        write token, may send ``If-Match`` and answers an ``ETag``. ``in_query``: ``?token=`` too (the event
        stream). ``owner``: a change a competition's table may not make with its own token."""
        if function is None:
            return functools.partial(self.secured, changes=changes, in_query=in_query, owner=owner)
        changing_view = function.__name__.upper() not in READS if changes is None else changes

        @functools.wraps(function)
        def checked(*args, **kwargs):
            changing = request.method not in READS if changes is None else changes
            session_id = kwargs["session_id"]
            keys = group_store.evening_access_keys(read_one, session_id)
            g.access = access_by_keys(session_id, bearer_token(in_query), keys,
                                      (OWNER if owner else WRITE) if changing else READ)
            g.evening, g.group_id = keys, keys.group_id
            if changing:
                end_read_and_take_body()
            response = function(*args, **kwargs)
            if changing:
                response.set_etag(str(current_session().revision))
            return response

        documented = self._document(checked, ERRORS)
        if in_query:
            documented = self.doc(parameters=[TOKEN_PARAMETER])(documented)
        if changing_view:  # a MethodView's post, put, delete that changes the session (its If-Match: IF_MATCH)
            documented = self.alt_response(412, schema=StaleSchema, description=STALE)(documented)
            documented = self.alt_response(409, schema=JsonErrorSchema, description=CLOSED)(documented)
        return documented

    def token(self, check: TokenCheck, need: str, *, changes: bool | None = None, in_query: bool = False):
        """Check the resource's token (level ``need`` or above) before anything else, and document it; the route
        finds what it opened in ``current_group()`` (``current_competition()``). A change (by default any method
        but GET) then ends the read and takes the body; its service locks the row and checks the token again.
        ``in_query``: ``?token=`` too (downloads and streams)."""

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
