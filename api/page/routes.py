"""The phone page (手機記帳頁) at ``/`` and its assets under ``/app/``.

The page is plain HTML, CSS and JavaScript modules (no build step); every asset
is served by this blueprint, so a phone at the table needs nothing from the
internet. The page talks to the JSON API only.

``/sw.js`` is a service worker that keeps a copy of the page and its assets
(network first, the copy when there is no network), so a phone can reopen the
page with no Wi-Fi; sessions and hands are kept by the page itself.

``/app/words/<lang>.json`` is what the page reads of the words table of a language
(``words.page_table``: ``zh-Hant``, ``zh-Hans`` or ``en``), the same tables the
server's messages, sheets and pictures are worded from; the service worker keeps
all three with the page's files, so the page reads and switches its language offline.

``/manifest.webmanifest`` (the web app manifest: name, icons, theme colour) lets a
phone install the page to its home screen; it is kept offline with the rest.

``POST /app/qr.svg`` draws the QR code of a share link (分享連結). The link
carries the session's token in its fragment; it travels here in the request
body, never in a URL, so no access log ever records it.
"""
import io
import json
from functools import cache
from pathlib import Path

import segno
from flask import Blueprint, abort, jsonify, make_response, request, send_from_directory

from ledger.errors import InvalidRequest
from words import LANGUAGES, page_table

page = Blueprint("web", __name__, static_folder="static/app", static_url_path="/app")
MANIFEST = Path(__file__).parent / "static" / "manifest.webmanifest"

MAX_LINK_CHARS = 1000
# Scripts, styles and images come from this server only; blob: for the QR image and the PDF; framed by no one
# (api.http.security says why).
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
                           "frame-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@page.get("/")
def index():
    """The single page; the browser revalidates it each time so a new release shows at once."""
    return send_from_directory(page.static_folder, "index.html", max_age=0)


@page.after_request
def page_policy(response):
    """The page's policy on every HTML answer of the page: ``/`` and ``/app/index.html`` alike (its static copy,
    which the service worker may fetch), so no address of the page runs without it."""
    if response.mimetype == "text/html":
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


@page.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that it may keep ``/`` for offline use."""
    response = send_from_directory(page.static_folder, "sw.js", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@page.get("/manifest.webmanifest")
def manifest():
    """The web app manifest, with the type browsers look for before they offer to install the page."""
    response = make_response(MANIFEST.read_bytes())
    response.headers["Content-Type"] = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    return response


@page.get("/app/words/<lang>.json")
def language_words(lang: str):
    """The page's words in `lang`; revalidated each time (a 304 while unchanged) so a new release shows at once."""
    if lang not in LANGUAGES:
        abort(404)
    response = make_response(page_words(lang))
    response.headers["Content-Type"] = "application/json"
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@cache
def page_words(lang: str) -> bytes:
    """The page's table of `lang` as JSON, characters as they are: 20 KB, where \\u escapes made 28 KB in Chinese."""
    return json.dumps(page_table(lang), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


@page.get("/app/assets.json")
def asset_list():
    """Every file of the page and its words, for the service worker to keep before the Wi-Fi goes."""
    folder = Path(page.static_folder)
    files = sorted(f"/app/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*") if path.is_file())
    response = jsonify(["/", "/manifest.webmanifest", *files, *(f"/app/words/{lang}.json" for lang in LANGUAGES)])
    response.headers["Cache-Control"] = "no-store"
    return response


@page.post("/app/qr.svg")
def share_qr():
    """The QR code (SVG) of the share link posted as ``{"link": "http://…/#s=…&t=…"}``."""
    image = io.BytesIO()
    segno.make(share_link(request.get_json(silent=True)), error="m").save(
        image, kind="svg", scale=6, border=2, light="#fff", xmldecl=False)
    response = make_response(image.getvalue())
    response.headers["Content-Type"] = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store"
    return response


def share_link(body) -> str:
    """The link to draw: an http(s) URL of at most ``MAX_LINK_CHARS`` characters, else 422."""
    link = body.get("link") if isinstance(body, dict) else None
    if not isinstance(link, str) or not link.startswith(("http://", "https://")):
        raise InvalidRequest('send the share link as {"link": "http://…"}', "link")
    if len(link) > MAX_LINK_CHARS:
        raise InvalidRequest(f"a share link has at most {MAX_LINK_CHARS} characters", "link")
    return link
