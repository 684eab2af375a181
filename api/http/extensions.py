"""The Flask extensions of the app: flask-smorest's ``Api`` and ``Blueprint``, and the JSON of responses."""
import functools
import json
import threading

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
    """flask-smorest's Api whose error bodies always carry a readable ``message``, and whose OpenAPI document is
    written when first read (``spec``) rather than as each blueprint is registered: writing it was most of
    building an app, which each server process does as it starts, and many tests (docs/development.md, "The
    suite")."""

    ERROR_SCHEMA = JsonErrorSchema

    def __init__(self, *args, **kwargs):
        self._undocumented: list[tuple] = []  # (blueprint, name, parameters), in the order registered
        self._documenting = threading.Lock()
        super().__init__(*args, **kwargs)

    def register_blueprint(self, blp, *, parameters=None, **options):
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    @property
    def spec(self):
        """The OpenAPI document, its blueprints' operations and tags added as flask-smorest adds them."""
        with self._documenting:
            while self._undocumented:
                blp, name, parameters = self._undocumented.pop(0)
                blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
                self._spec.tag({"name": name, "description": blp.description})
        return self._spec

    @spec.setter
    def spec(self, spec):
        self._spec = spec

    def handle_http_exception(self, error):
        return http_error_response(error)


class ResponseJSON(DefaultJSONProvider):
    """Flask's JSON provider, except that compact response bodies are written by orjson, a share of recording a
    hand (``benchmarks/score_throughput.py``). The same JSON (keys sorted, a final newline), non-ASCII as
    UTF-8; what orjson refuses (``ORJSON_OPTIONS``) and every other use go through ``json.dumps``."""

    def response(self, *args, **kwargs):
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)
        try:
            body = orjson.dumps(self._prepare_response_obj(args, kwargs), option=ORJSON_OPTIONS)
        except orjson.JSONEncodeError:
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)


class BodyParser(FlaskParser):
    """webargs' parser, which leaves the JSON body it parsed on the request (``sent_json``), parsed once.

    The whole body is then checked (``api.http.text.check_json``) before the view's schema: 422 naming
    where. A body that is not JSON is a 415 on every endpoint (webargs would read it as none). A body over
    ``OFF_LOOP_BYTES`` (an import) is checked and loaded off the loop (``api.http.offload``)."""

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
    """``parse()``, with JSON the parser cannot read (nesting ~1,000 deep, integers past 4,300 digits) a 400,
    not a 500."""
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

    Its ``doc`` and ``alt_response`` wrap the view in a call on every request only to add to the OpenAPI
    document, and deep-copy the view's documentation so far, schemas included, at each, as every worker starts;
    here they add the same documentation (``_apidoc``) to the view itself, copying none of it."""

    ARGUMENTS_PARSER = BodyParser()

    def alt_response(self, *args, **kwargs):
        return _documenting(super().alt_response(*args, **kwargs))

    @staticmethod
    def doc(**kwargs):
        return _documenting(flask_smorest.Blueprint.doc(**kwargs))


def _documenting(decorator):
    """``decorator``'s documentation, added to the function it decorates instead of to a wrapper's copy."""

    def document(function):
        function._apidoc = _added(getattr(function, "_apidoc", {}), decorator(_undocumented)._apidoc)
        return function

    return document


def _undocumented():
    """A view with no documentation yet: a decorator given it documents only what it adds."""


def _added(documented: dict, more: dict, *, replacing: bool = False) -> dict:
    """``documented`` with ``more`` added, as flask-smorest adds it: dicts merged, the lists of responses and
    success codes extended, ``doc``'s own values (``manual_doc``) replaced; neither argument is changed.

    >>> _added({"manual_doc": {"parameters": [1]}, "response": {"responses": {409: ["a"]}}},
    ...        {"manual_doc": {"parameters": [2]}, "response": {"responses": {409: ["b"], 422: ["c"]}}})
    {'manual_doc': {'parameters': [2]}, 'response': {'responses': {409: ['a', 'b'], 422: ['c']}}}
    """
    merged = dict(documented)
    for key, value in more.items():
        old = documented.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            merged[key] = _added(old, value, replacing=replacing or key == "manual_doc")
        elif isinstance(old, list) and isinstance(value, list) and not replacing:
            merged[key] = old + value
        else:
            merged[key] = value
    return merged
