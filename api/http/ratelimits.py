"""Rate limits of the anonymous endpoints, per client address (Flask-Limiter): 429 with ``Retry-After``.

Creating a session, importing one and scoring a hand need no token, so
anyone on the club's Wi-Fi could create sessions by the thousand or keep
every worker replaying imports. Each is limited per client address, over a
moving window, to far more than an honest table does (settings, server-wide):

- ``RATE_LIMIT_CREATE_SESSION`` = "30 per minute": a table starts one
  evening; a whole club starting at once from one phone each is one per address.
- ``RATE_LIMIT_IMPORT`` = "6 per minute": restoring a backup is rare and one
  at a time, and an import (up to the body limit) replays every hand.
- ``RATE_LIMIT_SCORE`` = "120 per minute": the tile picker scores a hand as it
  is built, a few times a minute at a table; two a second is past any hand.

Creating a group and importing one (``POST /api/groups``, ``…/groups/import``)
need no token either: they count under the session settings, each endpoint
on its own counter.

Counters live in each worker's memory (no server of their own to run), so
each of ``RATE_LIMIT_PROCESSES`` workers allows its share, the limit divided
by their number and rounded down: whichever workers a client's requests
reach, together they allow at most the limit. A client on one keep-alive
connection stays on one worker and gets only that share (7 sessions a
minute of 30 with 4 workers), still past an honest table.
``api.gunicorn_config`` sets ``RATE_LIMIT_PROCESSES`` to gunicorn's worker count.

The client's address is the connection's peer. ``X-Forwarded-For`` is not
trusted, since any client can write it, unless ``TRUSTED_PROXIES`` says how
many proxies (nginx, Caddy) stand in front and append to it (werkzeug's
``ProxyFix``); behind a proxy that is not declared, every client shares the
proxy's address, and so its limits.

``RATELIMIT_ENABLED`` (Flask-Limiter's own setting) switches them off; it
defaults to off under ``TESTING``, whose suites create sessions by the hundred.
"""
import math
import time

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse
from werkzeug.middleware.proxy_fix import ProxyFix

DEFAULTS = {
    "RATE_LIMIT_CREATE_SESSION": "30 per minute",
    "RATE_LIMIT_IMPORT": "6 per minute",
    "RATE_LIMIT_SCORE": "120 per minute",
    "RATE_LIMIT_PROCESSES": 1,
    "TRUSTED_PROXIES": 0,
    "RATELIMIT_STRATEGY": "moving-window",
    "RATELIMIT_STORAGE_URI": "memory://",
}

# endpoint -> (its setting, what it does, for the message)
LIMITED = {
    "sessions.Sessions": ("RATE_LIMIT_CREATE_SESSION", "creating sessions"),
    "backup.Import": ("RATE_LIMIT_IMPORT", "importing sessions"),
    "score.Score": ("RATE_LIMIT_SCORE", "scoring hands"),
    "groups.Groups": ("RATE_LIMIT_CREATE_SESSION", "creating groups"),
    "group_backup.Import": ("RATE_LIMIT_IMPORT", "importing groups"),
}

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
    limiter = app.extensions[LIMITER] = Limiter(key_func=lambda: request.remote_addr or "unknown", app=app)
    for endpoint, (setting, _what) in LIMITED.items():
        # Checked as the view is called, before it reads the body.
        app.view_functions[endpoint] = limiter.limit(_configured(setting), methods=["POST"])(
            app.view_functions[endpoint])
    app.register_error_handler(RateLimitExceeded, too_many_requests)


def _configured(setting: str):
    return lambda: share_of(current_app.config[setting], current_app.config["RATE_LIMIT_PROCESSES"])


def too_many_requests(error: RateLimitExceeded):
    """429 naming the limit, with ``Retry-After``: the seconds until the window lets one more through."""
    window = error.limit.limit.get_expiry()
    current = current_app.extensions[LIMITER].current_limit
    reset_at = current.reset_at if current else time.time() + window
    # limits rounds its reset time up to the next whole second: never past one window from now
    retry_after = min(window, max(1, math.ceil(reset_at - time.time())))
    setting, what = LIMITED.get(request.endpoint, (None, "this request"))
    limit = current_app.config[setting] if setting else str(error.limit.limit)
    message = (f"Too many requests from your address for {what} (at most {limit} from one address); "
               f"try again in {retry_after} s.")
    return ({"code": 429, "status": "Too Many Requests", "message": message}, 429,
            {"Retry-After": str(retry_after)})
