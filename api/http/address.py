"""``GET /api/address``: the addresses at which other phones can open this server (issue 26).

A share link must open on another phone. ``PUBLIC_URL`` (a server on the internet), when set, is the
only address links carry; else ``NETWORK_URL``, which ``taizhang serve`` sets as the one that knows where
it listens, serves a page opened on loopback; else the page's origin, and on loopback with neither the
Share view says no address is known (``tests/e2e/test_reach.py``). A setting that is not a plain
http(s) address stops the app from starting, naming it: a link made from it would open nothing.
"""
from urllib.parse import urlsplit

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

SETTINGS = ("PUBLIC_URL", "NETWORK_URL")

blp = Blueprint("address", __name__, url_prefix="/api/address",
                description="Where other phones can open this server (for share links)")


class AddressSchema(ma.Schema):
    public_url = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "`TAIZHANG_PUBLIC_URL`: the server's address on the internet (links carry it when set)",
        "example": "https://taizhang.example.org"})
    network_url = ma.fields.String(required=True, allow_none=True, metadata={
        "description": "The server's address on the machine's network, set by `taizhang serve` when it listens "
                       "there; links carry it when the page was opened on a loopback address",
        "example": "http://192.168.1.23:5000"})


@blp.route("")
class Address(MethodView):
    @blp.response(200, AddressSchema)
    def get(self):
        """The public and network addresses of this server, `null` where unknown; no token needed."""
        return {name.lower(): current_app.config[name] for name in SETTINGS}


def checked_url(name: str, value) -> str | None:
    """``value`` without a trailing ``/``, or None when empty; a ``ValueError`` naming ``name`` when unusable.

    >>> checked_url("PUBLIC_URL", "https://taizhang.example.org/")
    'https://taizhang.example.org'
    >>> checked_url("NETWORK_URL", "")
    >>> checked_url("PUBLIC_URL", "taizhang.example.org")
    Traceback (most recent call last):
    ...
    ValueError: TAIZHANG_PUBLIC_URL must be an http:// or https:// address such as https://taizhang.example.org, \
not 'taizhang.example.org'
    """
    if value in (None, ""):
        return None
    parts = urlsplit(str(value))
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"TAIZHANG_{name} must be an http:// or https:// address such as "
                         f"https://taizhang.example.org, not {value!r}")
    return str(value).rstrip("/")


def init_app(app) -> None:
    """Check both settings once, as the app is built."""
    for name in SETTINGS:
        app.config[name] = checked_url(name, app.config.get(name))
