"""Limits: what one request or one session may hold, and bodies past them however they are sent.

Each is a Flask config key read through ``limit(key)``, far above any real evening and far below what
fills a disk or stalls a worker. ``MAX_PARTICIPANTS`` may be lowered, never raised past 16: settlement is
exact up to there. A chunked body has no ``Content-Length``, and werkzeug hands back its first
``max_content_length`` bytes as if they were all: ``LimitedRequest`` looks one byte past and answers 413.
"""
from typing import NamedTuple

from flask import Request, current_app, request
from flask_smorest import abort
from webargs.core import missing
from werkzeug.exceptions import RequestEntityTooLarge

from api.http.language import say
from ledger.settlement import MAX_EXACT_PARTICIPANTS

DEFAULTS = {
    "MAX_NAME_LENGTH": 40,
    "MAX_PARTICIPANTS": MAX_EXACT_PARTICIPANTS,
    "MAX_HANDS": 5_000,
    "MAX_IMPORT_BYTES": 2 * 1024 * 1024,
    "MAX_GROUP_IMPORT_BYTES": 2 * 1024 * 1024,
    "MAX_ROUND_TO": 1_000_000,
    "MAX_JSON_DEPTH": 32,
    "HANDS_PAGE_LIMIT": 1_000,
    "MAX_PAYMENTS_PER_REQUEST": 200,
    "MAX_ALIASES": 50,
    "MAX_MEMBERS": 1_000,
    "MAX_GROUP_EVENINGS": 5_000,
    "MAX_ENTRANTS": 1_000,
}


def limit(key: str) -> int:
    """The app's setting ``key`` (one of ``DEFAULTS``)."""
    return current_app.config[key]


class LimitedRequest(Request):
    """A request whose body, however it was sent, is refused with 413 when over the limit."""

    parsed_json = missing  # set by api.extensions.BodyParser
    document_limit = False  # set by allow_larger_bodies: the body is a document, allowed its own size
    _over_limit: bool | None = None  # _cut_at_limit's answer, found once (the body may then be parsed off the loop)

    def get_data(self, cache=True, as_text=False, parse_form_data=False):
        data = super().get_data(cache=True, parse_form_data=parse_form_data)
        if self._cut_at_limit(data):
            raise RequestEntityTooLarge()
        if cache and not as_text:
            return data
        return super().get_data(cache=cache, as_text=as_text, parse_form_data=parse_form_data)

    def get_json(self, force=False, silent=False, cache=True):
        """The JSON body, UTF-8 only (``utf8_only``): Python's parser would guess UTF-16 or UTF-32 from the bytes."""
        if not silent:
            utf8_only(self)
        return super().get_json(force=force, silent=silent, cache=cache)

    def sent_json(self):
        """The JSON body: as webargs parsed it for the view's schema, else ``get_json()``."""
        return self.get_json() if self.parsed_json is missing else self.parsed_json

    def require_json(self) -> None:
        """Refuse a request webargs found no JSON body in as Flask does (400), where a schema whose fields are
        all optional would have read it as ``{}``."""
        if self.parsed_json is missing:
            self.get_json()

    def _cut_at_limit(self, data: bytes) -> bool:
        """True for a body without Content-Length that goes on past the limit; the socket is read here once, on the
        loop (``BodyParser`` may parse the body later in another thread)."""
        if self.content_length is not None:
            return False
        if self._over_limit is None:
            maximum = self.max_content_length
            self._over_limit = maximum is not None and len(data) >= maximum \
                and bool(self.environ["wsgi.input"].read(1))
        return self._over_limit


UTF8 = ("utf-8", "utf8")


def utf8_only(request) -> None:
    """Refuse a JSON body declared in another charset (415) or that is not UTF-8 (400): JSON is UTF-8 (RFC 8259),
    and a body of ``charset=latin-1`` or ``utf-16`` read as UTF-8, or guessed at, is not what its client meant."""
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.strip().lower() not in UTF8:
        abort(415, message=say("json_charset", charset=charset))
    try:
        request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError as error:
        abort(400, message=say("malformed", problems=f"the body is not UTF-8 (byte {error.start})"))


def init_app(app) -> None:
    """Fill in the default of every limit the app's config does not set; refuse bodies past the limit."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if app.config["MAX_PARTICIPANTS"] > MAX_EXACT_PARTICIPANTS:
        raise ValueError(f"MAX_PARTICIPANTS is at most {MAX_EXACT_PARTICIPANTS}: settlement cannot settle more")
    app.request_class = LimitedRequest


class Limits(NamedTuple):
    """What a service holds a change to: the settings above that a change, not a request's shape, can pass."""

    max_participants: int
    max_hands: int
    max_members: int
    max_aliases: int
    max_group_evenings: int
    max_entrants: int


def limits() -> Limits:
    """The current app's ``Limits``, for a route to hand to a service."""
    return Limits(limit("MAX_PARTICIPANTS"), limit("MAX_HANDS"), limit("MAX_MEMBERS"), limit("MAX_ALIASES"),
                  limit("MAX_GROUP_EVENINGS"), limit("MAX_ENTRANTS"))


def allow_larger_bodies(blueprint, sizes: dict) -> None:
    """Let some routes of ``blueprint`` (their ``MethodView`` -> a setting of ``DEFAULTS``) take bodies up to that
    setting rather than the app's ``MAX_CONTENT_LENGTH``: a document holding a whole evening or group."""
    endpoints = {f"{blueprint.name}.{view.__name__}": setting for view, setting in sizes.items()}

    @blueprint.before_request
    def _larger_body():
        setting = endpoints.get(request.endpoint)
        if setting is not None:
            request.max_content_length = limit(setting)
            request.document_limit = True  # a 413 then says so (api.http.errors)
