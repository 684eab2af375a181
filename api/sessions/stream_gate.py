"""The door of the event streams: a stream past a bound is refused before Flask, the database or the limiter see it.

Refusing a flood through Flask, the limiter and the error handler cost an honest hand its wait
(``benchmarks/abuse.py`` "streams"). ``StreamGate`` wraps the WSGI app inside ``ProxyFix`` and answers
from the path, address and ``Accept-Language`` alone, as ``api.sessions.events`` would: 429 past this
worker's share of ``RATE_LIMIT_STREAMS`` (a moving window), 503/429 when the worker's, the address's or
the evening's streams are full. A stream let through waits for one of ``STREAM_STARTS`` places to check
its token, so streams let in together cannot take every pooled connection.
"""
from __future__ import annotations

import json
import math
import re
import threading
import time

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

from api.http.ratelimits import share_of
from api.http.security import secure
from api.http.live import STREAMS_KEY, StreamBounds
from words import ENGLISH, language_from_accept, word

EVENTS = re.compile(r"/api/sessions/([^/]+)/events")
STREAM_STARTS = 4  # a worker's streams checking their token at once: a quarter of its pooled connections at most
RETRY_AFTER_S = 30  # a stream refused for a bound: places come back as streams end
REFUSALS = {"worker": (503, "Service Unavailable", "api.streams_full", None),
            "address": (429, "Too Many Requests", "api.streams_address", "EVENTS_PER_ADDRESS"),
            "evening": (429, "Too Many Requests", "api.streams_evening", "EVENTS_PER_EVENING")}


def stream_bounds(config) -> StreamBounds:
    """This process's bounds: the worker's own, and its share of the server-wide ones."""
    processes = max(1, int(config.get("RATE_LIMIT_PROCESSES", 1)))
    return StreamBounds(int(config["EVENTS_PER_WORKER"]), max(1, config["EVENTS_PER_ADDRESS"] // processes),
                        max(1, config["EVENTS_PER_EVENING"] // processes))


def refusal_words(refused: str, config, language: str) -> tuple[int, str, str]:
    """Status, its name and the message of a stream refused for a bound (``"worker"``, ``"address"``, ``"evening"``)."""
    status, name, key, setting = REFUSALS[refused]
    values = {"seconds": RETRY_AFTER_S} if setting is None else {"seconds": RETRY_AFTER_S, "maximum": config[setting]}
    return status, name, word(language, key, **values)


class StreamGate:
    """WSGI middleware: refuses an event stream past a bound (see the module's docstring), else passes it on."""

    def __init__(self, wsgi_app, app):
        self.wsgi_app = wsgi_app
        self.app = app
        self.openings = MovingWindowRateLimiter(MemoryStorage())  # as flask-limiter's RATELIMIT_STRATEGY
        self.starting = threading.BoundedSemaphore(STREAM_STARTS)  # gevent's, in a worker (patched before the app)

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET":
            found = EVENTS.fullmatch(environ.get("PATH_INFO", ""))
            if found:
                refused = self.refusal(environ, found[1])
                if refused is not None:
                    return refused(environ, start_response)
                with self.starting:  # until the view has answered: the stream itself reads nothing
                    return self.wsgi_app(environ, start_response)
        return self.wsgi_app(environ, start_response)

    def refusal(self, environ, session_id: str) -> Response | None:
        """The answer refusing this stream, or None to let it through."""
        config = self.app.config
        address = environ.get("REMOTE_ADDR") or "unknown"
        if config.get("RATELIMIT_ENABLED"):
            rate = parse(share_of(config["RATE_LIMIT_STREAMS"], config["RATE_LIMIT_PROCESSES"]))
            if not self.openings.hit(rate, "streams", address):
                reset_at = self.openings.get_window_stats(rate, "streams", address).reset_time
                seconds = min(rate.get_expiry(), max(1, math.ceil(reset_at - time.time())))
                language = _language(environ)
                return _answer(429, "Too Many Requests", seconds, word(
                    language, "api.rate_limited", what=word(language, "api.rate.opening_streams"),
                    limit=config["RATE_LIMIT_STREAMS"], seconds=seconds))
        refused = self.app.extensions[STREAMS_KEY].refusal(address, session_id, stream_bounds(config))
        if refused is None:
            return None
        status, name, message = refusal_words(refused, config, _language(environ))
        return _answer(status, name, RETRY_AFTER_S, message)


def _language(environ) -> str:
    """The reader's language, as ``api.http.language.request_language(ENGLISH)`` finds it in a request."""
    accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
    return language_from_accept((tag for tag, _ in accepted), ENGLISH)


def _answer(status: int, name: str, seconds: int, message: str) -> Response:
    body = json.dumps({"code": status, "status": name, "message": message}, ensure_ascii=False)
    return secure(Response(body, status, {"Retry-After": str(seconds)}, mimetype="application/json"))
