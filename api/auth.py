"""Bearer tokens (憑證) for sessions: every request on a session must carry its token.

Creating a session returns a random token once; the database keeps only its
SHA-256, compared in constant time. ``authorized_session`` checks a request
on a session, and ``SecuredBlueprint.secured`` runs it before any session
endpoint does anything else:

- no ``Authorization: Bearer <token>`` header: ``401`` with ``WWW-Authenticate``;
- an unknown session id: ``404``;
- a token that does not open this session: ``403``, and never the data.

``SecuredBlueprint.token_checked`` is the same check for recording a hand,
made without the session's lock, so that the body is parsed and validated
before the lock is taken (on SQLite the one writer lock of the database):
it compares the token with the session's token hash, which never changes
and is kept per process once read (``stored_token_hash``). The hand is then
written only after the token has been checked again against the locked row
(``check_token``): the kept hash can refuse a request early, never let one in.
(``current_token()`` is the token a ``token_checked`` view was called with.)

``client_label`` is the ``X-Client`` header that entries and the audit trail
keep as "who" (a label the client chooses, not an identity).

``SecuredBlueprint`` is a flask-smorest Blueprint (``api.extensions.Blueprint``) whose operations are
documented as needing the bearer token (``bearerAuth`` in the OpenAPI spec).
"""
import functools
import hashlib
import hmac
import secrets

from flask import current_app, g, request
from flask_smorest import abort

from api.db import get_engine, get_session
from api.errors import JsonErrorSchema
from api.extensions import Blueprint
from api.text import bad_character, normal_name
from ledger import store

TOKEN_BYTES = 32
SESSION_ID_BYTES = 20
SCHEME_NAME = "bearerAuth"
SECURITY_SCHEME = {"type": "http", "scheme": "bearer",
                   "description": "The token returned once by `POST /api/sessions`"}
CHALLENGE = 'Bearer realm="taizhang"'
READS = ("GET", "HEAD", "OPTIONS")
KEPT_HASHES_KEY = "taizhang.token_hashes"
MAX_KEPT_HASHES = 10_000
ERRORS = {401: "No bearer token", 403: "A token that does not open this session",
          404: "Unknown session (or hand)"}


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


def bearer_token() -> str:
    """The bearer token of the current request; aborts with 401 when there is none."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, message="This session needs its token: send Authorization: Bearer <token>.",
              headers={"WWW-Authenticate": CHALLENGE})
    return token.strip()


def authorized_session(session_id: str, *, lock: bool = False) -> store.SessionRow | store.SessionHead:
    """The session ``session_id`` if the request carries its token (else 401, 404 or 403).

    ``lock``, for a request that changes the session: its ``SessionHead`` read
    holding its row lock (one statement); else its ``SessionRow``.
    """
    token = bearer_token()
    if lock:
        session = store.lock_session(get_session().connection(), session_id)
    else:
        session = store.find_session(get_session(), session_id)
    check_token(session_id, token, None if session is None else session.token_hash)
    return session


def check_token(session_id: str, token: str, stored_hash: str | None) -> None:
    """404 if session ``session_id`` does not exist (``stored_hash`` None), 403 if ``token`` does not open it."""
    if stored_hash is None:
        abort(404, message=f"No session {session_id!r}.")
    if not token_matches(token, stored_hash):
        abort(403, message="This token does not open this session.")


def checked_token(session_id: str) -> str:
    """The request's bearer token if it opens session ``session_id`` (else 401, 404, 403), without its lock."""
    token = bearer_token()
    check_token(session_id, token, stored_token_hash(session_id))
    return token


def stored_token_hash(session_id: str) -> str | None:
    """The token hash of session ``session_id`` (None if there is no such session), read once per process.

    A session's token never changes, so what was read stays true; the memo
    keeps at most ``MAX_KEPT_HASHES`` sessions and starts again when full.
    """
    kept = current_app.extensions.setdefault(KEPT_HASHES_KEY, {})
    stored = kept.get(session_id)
    if stored is None:
        with get_engine().connect() as connection:
            stored = store.find_token_hash(connection, session_id)
        if stored is not None:
            if len(kept) >= MAX_KEPT_HASHES:
                kept.clear()
            kept[session_id] = stored
    return stored


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


def current_token() -> str:
    """The bearer token a ``SecuredBlueprint.token_checked`` view was called with, already checked once."""
    return g.bearer_token


def current_session() -> store.SessionRow | store.SessionHead:
    """The session of a ``SecuredBlueprint.secured`` view, its token checked (see ``authorized_session``)."""
    return g.authorized_session


class SecuredBlueprint(Blueprint):
    """A Blueprint whose every operation needs the session's bearer token, as documented."""

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        if SCHEME_NAME not in spec.components.security_schemes:
            spec.components.security_scheme(SCHEME_NAME, SECURITY_SCHEME)
        super().register_views_in_doc(api, app, spec, name=name, parameters=parameters)

    def secured(self, function):
        """Check the token before anything else (even the body) and document it, with 401/403/404.

        The view (with a ``session_id`` path parameter) then finds the session
        in ``current_session()``; requests that change something hold its lock.
        """

        @functools.wraps(function)
        def checked(*args, **kwargs):
            g.authorized_session = authorized_session(kwargs["session_id"], lock=request.method not in READS)
            return function(*args, **kwargs)

        return self._document(checked)

    def token_checked(self, function):
        """Check the token before anything else, as ``secured`` does, but without the session's lock.

        For a view that writes with ``api.db.write``, which takes the lock
        itself once the body is parsed: it finds the token in
        ``current_token()`` and must check it again against the locked row.
        """

        @functools.wraps(function)
        def checked(*args, **kwargs):
            g.bearer_token = checked_token(kwargs["session_id"])
            return function(*args, **kwargs)

        return self._document(checked)

    def _document(self, view):
        documented = self.doc(security=[{SCHEME_NAME: []}])(view)
        for status, description in ERRORS.items():
            documented = self.alt_response(status, schema=JsonErrorSchema, description=description)(documented)
        return documented
