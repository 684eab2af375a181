"""Body limits (413 Content Too Large) also for bodies sent without a Content-Length.

Flask refuses a body whose ``Content-Length`` is over ``request.max_content_length``
before reading it. A chunked body has no ``Content-Length``: werkzeug (3.1)
reads it through a stream that stops at the limit and hands back the first
``max_content_length`` bytes as if they were the whole body, so an oversized
JSON body became a 400 "Invalid JSON body", or worse, a shorter valid one.
``LimitedRequest`` looks one byte past the limit and refuses such a body with 413.

``LimitedRequest.sent_json`` is the JSON body as webargs parsed it for the
view's schema (``api.extensions.BodyParser``), so that it is parsed once.
"""
from flask import Request
from webargs.core import missing
from werkzeug.exceptions import RequestEntityTooLarge


class LimitedRequest(Request):
    """A request whose body, however it was sent, is refused with 413 when over the limit."""

    parsed_json = missing  # set by api.extensions.BodyParser

    def get_data(self, cache=True, as_text=False, parse_form_data=False):
        data = super().get_data(cache=True, parse_form_data=parse_form_data)
        if self._cut_at_limit(data):
            raise RequestEntityTooLarge()
        if cache and not as_text:
            return data
        return super().get_data(cache=cache, as_text=as_text, parse_form_data=parse_form_data)

    def sent_json(self):
        """The JSON body: as webargs parsed it for the view's schema, else ``get_json()``."""
        return self.get_json() if self.parsed_json is missing else self.parsed_json

    def _cut_at_limit(self, data: bytes) -> bool:
        """True for a body without Content-Length that goes on past the limit.

        ``max_content_length`` (two lookups of ``current_app``) is read only
        for a body without Content-Length, which is rare.
        """
        if self.content_length is not None:
            return False
        limit = self.max_content_length
        if limit is None or len(data) < limit:
            return False
        return bool(self.environ["wsgi.input"].read(1))


def init_app(app) -> None:
    app.request_class = LimitedRequest
