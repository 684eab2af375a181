"""Rate limits of every endpoint that writes (Flask-Limiter): 429 with ``Retry-After``, in the reader's language.

Creating, importing and scoring need no token, so each is limited per client address, far above an
honest table. Every other change counts per link (else per address), so a club's tables behind one
address never share a counter and a random token lifts no limit; a body's listed rows count each.
Stream openings are limited before the token is read (``api.sessions.stream_gate``). Each worker counts
in its memory and allows its share (``share_of``). ``X-Forwarded-For`` is trusted only through
``TRUSTED_PROXIES``: any client can write it.
"""
import hashlib
import math
import time

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse
from werkzeug.middleware.proxy_fix import ProxyFix

from api.http.db import get_engine
from api.http.language import request_language
from ledger import competition_store
from words import ENGLISH, word

DEFAULTS = {
    "RATE_LIMIT_CREATE_SESSION": "30 per minute",
    "RATE_LIMIT_CREATE_GROUP": "20 per day",
    "RATE_LIMIT_CREATE_COMPETITION": "20 per day",
    "RATE_LIMIT_IMPORT": "6 per minute",
    "RATE_LIMIT_SCORE": "120 per minute",
    "RATE_LIMIT_WRITE": "600 per minute",
    "RATE_LIMIT_STREAMS": "240 per minute",
    "RATE_LIMIT_DOCUMENTS": "20 per minute",
    "RATE_LIMIT_ROUNDS": "30 per hour",
    "RATE_LIMIT_PROCESSES": 1,
    "TRUSTED_PROXIES": 0,
    "RATELIMIT_STRATEGY": "moving-window",
    "RATELIMIT_STORAGE_URI": "memory://",
}

# endpoint -> (its setting, the words saying what it does, for the message), counted per address
LIMITED = {
    "sessions.Sessions": ("RATE_LIMIT_CREATE_SESSION", "api.rate.creating_sessions"),
    "backup.Import": ("RATE_LIMIT_IMPORT", "api.rate.importing_sessions"),
    "score.Score": ("RATE_LIMIT_SCORE", "api.rate.scoring_hands"),
    "groups.Groups": ("RATE_LIMIT_CREATE_GROUP", "api.rate.creating_groups"),
    "competitions.Competitions": ("RATE_LIMIT_CREATE_COMPETITION", "api.rate.creating_competitions"),
    "group_backup.Import": ("RATE_LIMIT_IMPORT", "api.rate.importing_groups"),
    "group_backup.EveningImport": ("RATE_LIMIT_IMPORT", "api.rate.importing_sessions"),
}
WRITES = ("POST", "PUT", "PATCH", "DELETE")
STREAMS = ("competition_events.Events",)  # a competition's (an evening's are counted by api.sessions.stream_gate)
DOCUMENTS = ("competition_reports.TablesPdf", "competition_reports.ReportPdf", "competition_reports.StandingsPng")
ROUNDS = ("competitions.Rounds", "competitions.Start", "competitions.End")

LIMITER = "taizhang.limiter"


def share_of(limit: str, processes: int) -> str:
    """One worker's share of a server-wide ``limit``, rounded down (at least 1).

    >>> share_of("30 per minute", 4)
    '7 per 1 minute'
    >>> share_of("6 per minute", 8)
    '1 per 1 minute'
    >>> share_of("120 per 2 minutes", 1)
    '120 per 2 minute'
    """
    item = parse(limit)
    return f"{max(1, item.amount // max(1, processes))} per {item.multiples} {item.GRANULARITY.name}"


def init_app(app) -> None:
    """Limit the endpoints of ``LIMITED``; call once every blueprint is registered."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.config.get("TESTING", False))
    if app.config["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=int(app.config["TRUSTED_PROXIES"]))
    limiter = app.extensions[LIMITER] = Limiter(key_func=_address, app=app)
    for endpoint, (setting, _what) in LIMITED.items():
        # Checked as the view is called, before it reads the body.
        app.view_functions[endpoint] = limiter.limit(_configured(setting), methods=["POST"])(
            app.view_functions[endpoint])
    # Opening a competition's stream reads the database before anything can refuse it: opened by the thousand,
    # the openings alone would stall both workers (an evening's streams: api.sessions.stream_gate, before Flask).
    for endpoint in STREAMS:
        app.view_functions[endpoint] = limiter.limit(_configured("RATE_LIMIT_STREAMS"), methods=["GET"])(
            app.view_functions[endpoint])
    documents = limiter.shared_limit(_configured("RATE_LIMIT_DOCUMENTS"), scope="documents", key_func=_link,
                                     methods=["GET"])  # one counter per link, the three together
    rounds = limiter.shared_limit(_configured("RATE_LIMIT_ROUNDS"), scope="rounds", key_func=_competition,
                                  methods=["POST"], deduct_when=lambda response: response.status_code < 400)
    for endpoint in DOCUMENTS:
        app.view_functions[endpoint] = documents(app.view_functions[endpoint])
    for endpoint in ROUNDS:
        app.view_functions[endpoint] = rounds(app.view_functions[endpoint])
    writes = limiter.shared_limit(_configured("RATE_LIMIT_WRITE"), scope="write", key_func=_link,
                                  methods=list(WRITES), cost=_write_cost)  # one counter per link, every endpoint
    for endpoint in sorted({rule.endpoint for rule in app.url_map.iter_rules() if set(WRITES) & rule.methods}):
        if endpoint not in LIMITED and endpoint in app.view_functions:
            app.view_functions[endpoint] = writes(app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, too_many_requests)


def _address() -> str:
    return request.remote_addr or "unknown"


def _link() -> str:
    """The counter of a change: its bearer token's if the token is a link's (hashed: no token is kept, even in
    memory), else its address's: keyed on any token sent, each random one was a counter of its own."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    token = token or request.args.get("token", "").strip()
    digest = hashlib.sha256(token.encode()).hexdigest() if token else None
    return f"link:{digest}" if digest and _names_a_link(digest) else f"address:{_address()}"


KNOWN_LINKS = "taizhang.known_links"
KNOWN_LINK_SECONDS = 300  # a token found to be a link's is not looked up again for this long
KNOWN_LINKS_KEPT = 10_000  # per worker; past it the longest known is forgotten


def _names_a_link(digest: str) -> bool:
    """Whether the token of hash ``digest`` is a link's: one index lookup (on a connection of its own, the
    request's reads not begun), then remembered a while, so that a table's hands look it up once."""
    known: dict[str, float] = current_app.extensions.setdefault(KNOWN_LINKS, {})
    now = time.monotonic()
    if now - known.get(digest, -math.inf) < KNOWN_LINK_SECONDS:
        return True
    with get_engine().connect() as connection:
        if not competition_store.names_a_link(connection, digest):
            return False
    known.pop(digest, None)
    if len(known) >= KNOWN_LINKS_KEPT:
        del known[next(iter(known))]
    known[digest] = now
    return True


def _competition() -> str:
    """The counter of a competition's draws, starts and ends: the competition's, whoever asks (only what was done
    counts: ``deduct_when``, so that a refused token uses up nothing of the organiser's)."""
    return f"competition:{(request.view_args or {}).get('competition_id', '')}"


#: Endpoints whose body carries a list of rows to write: ``payments``, ``aliases``.
ROWS_IN_BODY = {"groups.Payments": "payments", "groups.Members": "aliases", "groups.Member": "aliases"}


def _write_cost(endpoint: str | None = None) -> int:
    """What a change counts against ``RATE_LIMIT_WRITE``: one, and one more per row its body lists, since
    batches counted as one kept SQLite's write lock from honest tables (``benchmarks/abuse.py``). Only the
    bodies of ``ROWS_IN_BODY`` endpoints are read here."""
    field = ROWS_IN_BODY.get(endpoint or request.endpoint)
    if field is None:
        return 1
    body = request.get_json(silent=True)
    rows = body.get(field) if isinstance(body, dict) else None
    return 1 + (len(rows) if isinstance(rows, list) else 0)


def _configured(setting: str):
    return lambda: share_of(current_app.config[setting], current_app.config["RATE_LIMIT_PROCESSES"])


def too_many_requests(error: RateLimitExceeded):
    """429 naming the limit, with ``Retry-After``: the seconds until the window lets one more through."""
    window = error.limit.limit.get_expiry()
    current = current_app.extensions[LIMITER].current_limit
    reset_at = current.reset_at if current else time.time() + window
    # limits rounds its reset time up to the next whole second: never past one window from now
    retry_after = min(window, max(1, math.ceil(reset_at - time.time())))
    language = request_language(ENGLISH)
    if request.endpoint in STREAMS:
        message = word(language, "api.rate_limited", what=word(language, "api.rate.opening_streams"),
                       limit=current_app.config["RATE_LIMIT_STREAMS"], seconds=retry_after)
    elif request.endpoint in DOCUMENTS:
        message = word(language, "api.rate_limited_documents", limit=current_app.config["RATE_LIMIT_DOCUMENTS"],
                       seconds=retry_after)
    elif request.endpoint in ROUNDS and error.limit.scope == "rounds":
        message = word(language, "api.rate_limited_rounds", limit=current_app.config["RATE_LIMIT_ROUNDS"],
                       seconds=retry_after)
    elif request.endpoint in LIMITED:
        setting, what = LIMITED[request.endpoint]
        message = word(language, "api.rate_limited", what=word(language, what), limit=current_app.config[setting],
                       seconds=retry_after)
    else:
        message = word(language, "api.rate_limited_link", limit=current_app.config["RATE_LIMIT_WRITE"],
                       seconds=retry_after)
    return ({"code": 429, "status": "Too Many Requests", "message": message}, 429,
            {"Retry-After": str(retry_after)})
