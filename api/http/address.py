"""``GET /api/address``: the addresses at which other phones can open this server (issue 26).

A phone shares an evening by a link (and its QR code) that another phone must
be able to open. The page builds it from, in this order:

1. ``PUBLIC_URL`` (``TAIZHANG_PUBLIC_URL``): the address of a server on the
   internet, e.g. ``https://taizhang.example.org`` behind Caddy or nginx
   (``deploy/``). Set, it is the only address links carry.
2. ``NETWORK_URL`` (``TAIZHANG_NETWORK_URL``): the server's own address on the
   machine's network, e.g. ``http://192.168.1.23:5000``. ``taizhang serve``
   (``make run``) sets it when it listens on the network, as it is the one
   that knows where it listens; the app alone cannot know. The page uses it
   when it was opened on a loopback address (``127.0.0.1``, ``localhost``),
   whose links would open nothing on another phone.
3. Else the page's own origin; opened on loopback with neither known, the
   Share view says plainly that no address other phones can open is known
   (``tests/e2e/test_reach.py``).

Both are ``null`` when unset. A setting that is not an http(s) address with
nothing but a host and a port (and, for the public one, a path) stops the
app from starting, naming the setting: a link made from it would open nothing.
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
