"""Bearer tokens (憑證) for sessions: every request on a session must carry its token.

Creating a session returns a random token once; the database keeps only its
SHA-256, compared in constant time. ``authorized_session`` checks a request
on a session, and ``SecuredBlueprint.secured`` runs it before any session
endpoint does anything else:

- no ``Authorization: Bearer <token>`` header: ``401`` with ``WWW-Authenticate``;
- an unknown session id: ``404``;
- a token the session replaced (``POST …/tokens``): ``401``, "ask for the new link";
- a token that does not open this session: ``403``, and never the data;
- the read-only token (``read_token``) on a request that changes something: ``403``.

A session has two tokens: the write token opens everything, the read-only
token every read (``access`` is ``write`` or ``read``). An evening of a group
(``ledger.group_store``) is also opened by the group's tokens: its member and
admin tokens as the write token, its read-only token as the read-only one.

A group has three tokens (``GROUP_LEVELS``: admin, member, read), checked by
``authorized_group`` the same way, except that a token that is none of them
is a 401 (the group's links carry no other token to be told apart from).

A request that changes the session reads it, and its group's id, holding
its lock (``group_store.find_session(lock=True)``, in a transaction begun by
``api.db.begin_write``):
the token is checked against the locked row, and the view then changes the
session in the same transaction. Its answer carries the session's new
revision as ``ETag``; the revision it was made against, if the client says
(``If-Match``), is ``expected_revision()``.

``client_label`` is the ``X-Client`` header that entries and the audit trail
keep as "who" (a label the client chooses, not an identity).

``SecuredBlueprint`` is a flask-smorest Blueprint (``api.extensions.Blueprint``) whose operations are
documented as needing the bearer token (``bearerAuth`` in the OpenAPI spec).
"""
import functools
import hashlib
import hmac
import secrets

from flask import g, request
from flask_smorest import abort

from api.db import begin_write, get_session
from api.errors import JsonErrorSchema, StaleSchema
from api.extensions import Blueprint
from api.messages import level_words, say
from api.text import bad_character, normal_name
from ledger import group_store, store

TOKEN_BYTES = 32
SESSION_ID_BYTES = 20
SCHEME_NAME = "bearerAuth"
SECURITY_SCHEME = {"type": "http", "scheme": "bearer",
                   "description": "The token returned once by `POST /api/sessions`"}
CHALLENGE = 'Bearer realm="taizhang"'
READS = ("GET", "HEAD", "OPTIONS")
ERRORS = {401: "No bearer token, or one this session has replaced",
          403: "A token that does not open this session, or a read-only token on a change",
          404: "Unknown session (or hand)"}
WRITE, READ = "write", "read"
ADMIN, MEMBER = "admin", "member"
GROUP_LEVELS = (READ, MEMBER, ADMIN)  # each can do what the one before it can
TOKEN_PARAMETER = {"in": "query", "name": "token", "required": False, "schema": {"type": "string"},
                   "description": "The bearer token, for clients that cannot send headers (EventSource)"}
IF_MATCH = {"in": "header", "name": "If-Match", "required": False,
            "schema": {"type": "string", "pattern": '^(\\*|"[0-9]{1,10}")$'},
            "description": 'The revision the change was made against, as `"n"` (the session\'s ETag): '
                           "412 with what changed since if the session has moved on"}
STALE = "The session has moved on since the If-Match revision: `revision` and the entries changed `since`"
CLOSED = "The evening is closed: reopen it first"


def new_token() -> str:
    """A fresh unguessable bearer token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_session_id() -> str:
    """A fresh unguessable session id (160 bits), in hex.

    Hex, so an id never starts with ``-`` and reads as an option to
    ``flask report`` or ``flask backup``.
    """
    return secrets.token_hex(SESSION_ID_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of ``token``: what the database keeps.

    >>> token_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def bearer_token(in_query: bool = False) -> str:
    """The bearer token of the current request (or its ``?token=``, if ``in_query``); 401 when there is none."""
    if in_query and request.args.get("token", "").strip():
        return request.args["token"].strip()
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, message=say("token_missing"),
              headers={"WWW-Authenticate": CHALLENGE})
    return token.strip()


def authorized_session(session_id: str, *, lock: bool = False, in_query: bool = False) -> store.SessionRow:
    """The session ``session_id`` if the request carries a token that opens it (else 401, 404 or 403).

    ``lock``, for a request that changes the session: only with the write
    token, checked first; then its body is read and the session read again
    holding its lock, in the write transaction the view then commits. The
    token's access is kept for ``current_access()``.
    """
    token = bearer_token(in_query)
    db = get_session()
    session, g.group_id = group_store.find_session(db, session_id)
    g.access = access(db, session_id, token, session, g.group_id)
    if not lock:
        return session
    if g.access != WRITE:
        abort(403, message=say("read_only"))
    begin_change(db)
    session, g.group_id = group_store.find_session(db, session_id, lock=True)
    access(db, session_id, token, session, g.group_id)  # again, under the lock: new links may have been issued since
    return session


def begin_change(db) -> None:
    """End the token's read, take the request's whole body, then begin the write transaction.

    The whole body before the lock the caller takes next, and with no database
    connection: a client sending it slowly (api.deadline bounds how slowly)
    holds its own request, not the row's lock (on SQLite the database's one
    write lock) nor one of the pool's connections.
    """
    db.rollback()  # the read ends and its connection goes back to the pool
    request.get_data()
    begin_write(db)


def access(db, session_id: str, token: str, session: store.SessionRow | None, group_id: str | None) -> str:
    """``WRITE`` or ``READ``: what ``token`` may do on the session (of group ``group_id``, if any); 404, 401 (a
    replaced token) or 403 if nothing."""
    if session is None:
        abort(404, message=say("no_session", session_id=session_id))
    level = _level(token, session) or _group_level(db, token, group_id)
    if level is not None:
        return level
    if store.is_retired_token(db, session_id, token_hash(token)):
        abort(401, message=say("token_replaced"),
              headers={"WWW-Authenticate": CHALLENGE})
    abort(403, message=say("wrong_token"))


def opens(db, token: str, session: store.SessionRow) -> bool:
    """Whether ``token`` is one of the session's two tokens now, or a token of its group."""
    return (_level(token, session) or _group_level_on_evening(db, token, session.id)) is not None


def _group_level_on_evening(db, token: str, session_id: str) -> str | None:
    """What a token of the evening's group may do on it: ``WRITE`` (member, admin), ``READ``, or None."""
    group = group_store.group_of_session(db, session_id)
    return _evening_level(token, group)


def _group_level(db, token: str, group_id: str | None) -> str | None:
    """As ``_group_level_on_evening``, the evening's group known by its id (None: no group)."""
    return None if group_id is None else _evening_level(token, group_store.find_group(db, group_id))


def _evening_level(token: str, group: group_store.GroupRow | None) -> str | None:
    level = None if group is None else group_level(token, group)
    return None if level is None else READ if level == READ else WRITE


def group_level(token: str, group: group_store.GroupRow) -> str | None:
    """``ADMIN``, ``MEMBER`` or ``READ``: which of the group's tokens ``token`` is, else None (constant time)."""
    hashed = token_hash(token)
    found = None
    for level, stored in ((ADMIN, group.admin_token_hash), (MEMBER, group.member_token_hash),
                          (READ, group.read_token_hash)):
        if hmac.compare_digest(hashed, stored):
            found = level
    return found


def authorized_group(group_id: str, need: str = READ, *, lock: bool = False,
                     in_query: bool = False) -> group_store.GroupRow:
    """The group if the request's token is one of its tokens at level ``need`` or above (else 401, 404, 403).

    ``lock``, for a change: as ``authorized_session``, the token is checked,
    the body read, then the group read again holding its row lock in the
    write transaction the view commits. The level is kept for ``current_access()``.
    """
    token = bearer_token(in_query)
    db = get_session()
    group = group_store.find_group(db, group_id)
    g.access = _group_access(token, group, group_id, need)
    if not lock:
        return group
    begin_change(db)
    group = group_store.find_group(db, group_id, lock=True)
    _group_access(token, group, group_id, need)
    return group


def _group_access(token: str, group: group_store.GroupRow | None, group_id: str, need: str) -> str:
    if group is None:
        abort(404, message=say("no_group", group_id=group_id))
    level = group_level(token, group)
    if level is None:
        abort(401, message=say("wrong_group_token"),
              headers={"WWW-Authenticate": CHALLENGE})
    if GROUP_LEVELS.index(level) < GROUP_LEVELS.index(need):
        abort(403, message=say("group_level", need=level_words(need), level=level_words(level)))
    return level


def _level(token: str, session: store.SessionRow) -> str | None:
    """``WRITE`` for the write token, ``READ`` for the read-only one, else None (compared in constant time)."""
    if token_matches(token, session.token_hash):
        return WRITE
    if session.read_token_hash is not None and token_matches(token, session.read_token_hash):
        return READ
    return None


def expected_revision() -> int | None:
    """The revision named by the request's ``If-Match: "n"``; None without one (or ``*``); 422 if unreadable."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    tags = request.if_match.as_set()
    if len(tags) != 1 or not next(iter(tags)).isdigit() or len(next(iter(tags))) > 10:
        abort(422, message='If-Match must name one revision, as "n" (the session\'s ETag).', field="If-Match")
    return int(next(iter(tags)))


def client_label() -> str:
    """Who is entering, as the client says in ``X-Client`` (a label, not a proof); else ``unknown``.

    The header's bytes arrive decoded as latin-1 (WSGI's rule for headers): they
    are read again as the UTF-8 phones send, so ``阿明`` is kept as 阿明. A label
    that is not UTF-8 or holds a character text may not (``api.text``) is a 422;
    one is normalised as a name is, and cut to its first ``CLIENT_LENGTH`` characters.
    """
    sent = request.headers.get("X-Client", "")
    try:
        label = sent.encode("latin-1").decode("utf-8")
    except UnicodeError:
        abort(422, message="X-Client must be text in UTF-8", field="X-Client")
    problem = bad_character(label)
    if problem is not None:
        abort(422, message=f"X-Client holds {problem}, which text may not contain", field="X-Client")
    return normal_name(label)[:store.CLIENT_LENGTH] or store.UNKNOWN_CLIENT


def current_session() -> store.SessionRow:
    """The session of a ``SecuredBlueprint.secured`` view, its token checked (see ``authorized_session``)."""
    return g.authorized_session


def current_group_id() -> str | None:
    """The id of the group the session of a ``SecuredBlueprint.secured`` view belongs to (None: standalone)."""
    return g.group_id


def current_access() -> str:
    """What the token of a ``SecuredBlueprint.secured`` view may do: ``WRITE`` or ``READ``."""
    return g.access


class SecuredBlueprint(Blueprint):
    """A Blueprint whose every operation needs the session's bearer token, as documented."""

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        if SCHEME_NAME not in spec.components.security_schemes:
            spec.components.security_scheme(SCHEME_NAME, SECURITY_SCHEME)
        super().register_views_in_doc(api, app, spec, name=name, parameters=parameters)

    def secured(self, function=None, *, changes: bool | None = None, in_query: bool = False):
        """Check the token before anything else (even the body) and document it, with 401/403/404.

        The view (with a ``session_id`` path parameter) then finds the session
        in ``current_session()``; requests that change something hold its lock,
        need the write token, may send ``If-Match`` and answer with the new
        revision as ``ETag``. ``changes``: whether the view changes the
        session; by default, any method but GET, HEAD and OPTIONS does (a
        preview POSTs and changes nothing). ``in_query``: the token may also
        come as ``?token=`` (the event stream).
        """
        if function is None:
            return functools.partial(self.secured, changes=changes, in_query=in_query)
        changing_view = function.__name__.upper() not in READS if changes is None else changes

        @functools.wraps(function)
        def checked(*args, **kwargs):
            changing = request.method not in READS if changes is None else changes
            session = g.authorized_session = authorized_session(kwargs["session_id"], lock=changing,
                                                                in_query=in_query)
            response = function(*args, **kwargs)
            if changing:
                response.set_etag(str(session.revision))
            return response

        documented = self._document(checked)
        if in_query:
            documented = self.doc(parameters=[TOKEN_PARAMETER])(documented)
        if changing_view:  # a MethodView's post, put, delete that changes the session (its If-Match: IF_MATCH)
            documented = self.alt_response(412, schema=StaleSchema, description=STALE)(documented)
            documented = self.alt_response(409, schema=JsonErrorSchema, description=CLOSED)(documented)
        return documented

    def _document(self, view):
        documented = self.doc(security=[{SCHEME_NAME: []}])(view)
        for status, description in ERRORS.items():
            documented = self.alt_response(status, schema=JsonErrorSchema, description=description)(documented)
        return documented
