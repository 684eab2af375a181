"""Bearer tokens (憑證) for sessions: every request on a session must carry its token.

Creating a session returns a random token once; the database keeps only its
SHA-256, compared in constant time. ``authorized_session`` checks a request
on a session, and ``SecuredBlueprint.secured`` runs it before any session
endpoint does anything else:

- no ``Authorization: Bearer <token>`` header: ``401`` with ``WWW-Authenticate``;
- an unknown session id: ``404``;
- a token that does not open this session: ``403``, and never the data.

A request that changes the session reads it holding its lock
(``store.lock_session``, in a transaction begun by ``api.db.begin_write``):
the token is checked against the locked row, and the view then changes the
session in the same transaction.

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


def authorized_session(session_id: str, *, lock: bool = False) -> store.SessionRow:
    """The session ``session_id`` if the request carries its token (else 401, 404 or 403).

    ``lock``, for a request that changes the session: read holding its lock,
    in the write transaction the view then commits.
    """
    token = bearer_token()
    db = get_session()
    if lock:
        begin_write(db)
        session = store.lock_session(db, session_id)
    else:
        session = store.find_session(db, session_id)
    check_token(session_id, token, None if session is None else session.token_hash)
    return session


def check_token(session_id: str, token: str, stored_hash: str | None) -> None:
    """404 if session ``session_id`` does not exist (``stored_hash`` None), 403 if ``token`` does not open it."""
    if stored_hash is None:
        abort(404, message=f"No session {session_id!r}.")
    if not token_matches(token, stored_hash):
        abort(403, message="This token does not open this session.")


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


class SecuredBlueprint(Blueprint):
    """A Blueprint whose every operation needs the session's bearer token, as documented."""

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        if SCHEME_NAME not in spec.components.security_schemes:
            spec.components.security_scheme(SCHEME_NAME, SECURITY_SCHEME)
        super().register_views_in_doc(api, app, spec, name=name, parameters=parameters)

    def secured(self, function=None, *, changes: bool | None = None):
        """Check the token before anything else (even the body) and document it, with 401/403/404.

        The view (with a ``session_id`` path parameter) then finds the session
        in ``current_session()``; requests that change something hold its lock.
        ``changes``: whether the view changes the session; by default, any
        method but GET, HEAD and OPTIONS does (a preview POSTs and changes nothing).
        """
        if function is None:
            return functools.partial(self.secured, changes=changes)

        @functools.wraps(function)
        def checked(*args, **kwargs):
            changing = request.method not in READS if changes is None else changes
            g.authorized_session = authorized_session(kwargs["session_id"], lock=changing)
            return function(*args, **kwargs)

        return self._document(checked)

    def _document(self, view):
        documented = self.doc(security=[{SCHEME_NAME: []}])(view)
        for status, description in ERRORS.items():
            documented = self.alt_response(status, schema=JsonErrorSchema, description=description)(documented)
        return documented
