"""The Flask extensions of the app: flask-smorest's ``Api`` and ``Blueprint``, and the JSON of responses."""
import functools
import json

import flask_smorest
import orjson
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api, abort
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import UnsupportedMediaType

from api.http.limits import limit, utf8_only
from api.http.errors import JsonErrorSchema, http_error_response
from api.http.language import say
from api.http.offload import hold_collections, off_loop
from api.http.text import BadJson, check_json

API_SETTINGS = {
    "API_TITLE": "Taizhang",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
}

# Whatever orjson would not write as json.dumps does is refused (JSONEncodeError) and goes to
# Flask's encoder: dates, dataclasses and subclasses of str, int, dict or list (passed through to
# ``default``, which is None), keys that are not strings, integers past 64 bits, lone surrogates.
ORJSON_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_DATETIME
                  | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS)


class TaizhangApi(Api):
    """flask-smorest's Api whose error bodies always carry a readable ``message``."""

    ERROR_SCHEMA = JsonErrorSchema

    def handle_http_exception(self, error):
        return http_error_response(error)


class ResponseJSON(DefaultJSONProvider):
    """Flask's JSON provider, except that compact response bodies are written by orjson.

    ``json.dumps(..., sort_keys=True)`` of a recorded hand took ≈ 20 µs, 4.5 %
    of the instructions of recording it (callgrind); orjson takes ≈ 1 µs.
    The body is the same JSON: keys sorted, no spaces, a final newline; only
    non-ASCII text (players' names) is sent as UTF-8 rather than ``\\u``
    escapes, which reads back the same. Anything orjson refuses (see
    ``ORJSON_OPTIONS``) is written by Flask's ``json.dumps`` as before, and so
    is every other use of the provider (``flask.json.dumps``, the indented
    OpenAPI document, debug mode's indented responses).
    """

    def response(self, *args, **kwargs):
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)
        try:
            body = orjson.dumps(self._prepare_response_obj(args, kwargs), option=ORJSON_OPTIONS)
        except orjson.JSONEncodeError:
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)


class BodyParser(FlaskParser):
    """webargs' parser, which leaves the JSON body it parsed on the request (``sent_json``).

    A view that keeps the body exactly as sent (recording a hand) then reads
    it from ``request.sent_json()`` instead of parsing it a second time with
    ``request.get_json()`` (with the reads of the body that came with it,
    1.5 % of recording a hand). The body is parsed, and refused, as webargs does,
    and then checked as a whole (``api.text.check_json``: characters, depth,
    numbers) before the view's schema sees it: 422 naming where.

    A body that is not JSON (``Content-Type`` other than ``application/json``
    or ``…+json``, or none with a body) is refused with 415 on every JSON
    endpoint alike; webargs would read it as no body at all, so creating a
    session answered 422 "Missing data for required field" for every field.

    A JSON body over ``OFF_LOOP_BYTES`` (an import) is read off the socket on
    the loop, then checked and loaded by its schema off the loop
    (``api.http.offload``): a 1 MB group document took ≈ 1 s of marshmallow
    and 0.13 s of ``check_json`` (cProfile, in-process), during which a
    gevent worker served nobody else. Parsing the JSON text itself (C, ≈ 20 ms
    a MB) holds the interpreter wherever it runs.
    """

    OFF_LOOP_BYTES = 256 * 1024

    def parse(self, argmap, req=None, *, location=None, **kwargs):
        req = req if req is not None else self.get_default_request()
        if (location or self.location) == "json" and is_json_request(req) \
                and len(req.get_data(cache=True)) > self.OFF_LOOP_BYTES:
            hold_collections()
            return off_loop(functools.partial(super().parse, argmap, req, location=location, **kwargs))
        return super().parse(argmap, req, location=location, **kwargs)

    def _raw_load_json(self, req):
        has_body = req.mimetype or req.content_length or req.headers.get("Transfer-Encoding")
        if has_body and not is_json_request(req):
            raise UnsupportedMediaType(f"The request body must be JSON, sent with Content-Type: application/json "
                                       f"(not {req.mimetype or 'none'}).")
        if has_body:
            utf8_only(req)
        body = _parsed(lambda: super(BodyParser, self)._raw_load_json(req))
        if body is not missing:
            try:
                check_json(body, limit("MAX_JSON_DEPTH"))
            except BadJson as refused:
                abort(422, message=say("invalid", problems=refused.message), field=refused.field or None)
            req.parsed_json = body
        return body


def _parsed(parse):
    """``parse()``, with the JSON the parser cannot read refused as a 400 instead of crashing (500).

    Python's parser gives up on arrays nested about a thousand deep (RecursionError,
    from a 2 KB body) and on integers of more than 4,300 digits (ValueError).
    """
    try:
        return parse()
    except RecursionError:
        abort(400, message=say("malformed", problems=f"JSON may nest at most {limit('MAX_JSON_DEPTH')} levels deep"))
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise
        abort(400, message=say("malformed", problems="a number in the JSON body has too many digits"))


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint: bodies read by ``BodyParser``; documentation that costs no call.

    flask-smorest's ``doc`` and ``alt_response`` only add to the OpenAPI
    document, yet each wraps the view in a function that calls it through
    ``current_app.ensure_sync`` on every request: recording a hand went
    through seven of them, 3.4 % of its instructions (callgrind). Here they
    put the same documentation (``_apidoc``, where flask-smorest keeps it) on
    the view itself, which each view is decorated once to build.
    """

    ARGUMENTS_PARSER = BodyParser()

    def alt_response(self, *args, **kwargs):
        return _documenting(super().alt_response(*args, **kwargs))

    @staticmethod
    def doc(**kwargs):
        return _documenting(flask_smorest.Blueprint.doc(**kwargs))


def _documenting(decorator):
    """``decorator``'s documentation, put on the function it decorates instead of on a wrapper."""

    def document(function):
        function._apidoc = decorator(function)._apidoc
        return function

    return document
