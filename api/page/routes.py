"""The phone page (手機記帳頁) at ``/`` and its assets under ``/app/``.

The page is plain HTML, CSS and JavaScript modules, joined into its HTML by esbuild when the server
starts (``api.page.release``); every asset is served by this blueprint, so a phone at the table needs nothing from the
internet. The page talks to the JSON API only.

Every asset is served at an address that carries its content's hash (``release``: ``/app/js/api.js?v=…``) with
a year's ``max-age`` and ``immutable``; ``/``, whose import map names those addresses, and ``/sw.js`` are
revalidated on every load (a 304 while unchanged). A request for an asset without its current hash (an old
release's, or none) is answered with what there is now and ``no-cache``, so it is never kept as if it were
that release's.

``/sw.js`` is a service worker that keeps the whole release (the HTML, every asset, the words) and answers the
page from that copy first, so a phone reopens the page without asking the network for it; a new release
installs beside it, and the page offers to reload into it (``shell/new_release.js``), never mixing the two.

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
from flask import Blueprint, abort, current_app, jsonify, make_response, request

from api.page.release import IMMUTABLE, Release, release
from api.rules.schemas import RuleSetSchema
from api.rules.views import rulesets_view

from ledger.errors import InvalidRequest
from words import ENGLISH, LANGUAGES, language_from_accept, page_table

page = Blueprint("web", __name__, static_folder="static/app", static_url_path="/app")
MANIFEST = Path(__file__).parent / "static" / "manifest.webmanifest"
WORKER = Path(__file__).parent / "static" / "app" / "sw.js"

MAX_LINK_CHARS = 1000
# Scripts, styles and images come from this server only (scripts: also the page's inline import map and bundles, by
# their hashes, ``Release.script_hashes``);
# blob: for the QR image and the PDF; framed by no one (api.http.security says why).
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src {scripts}; style-src {styles}; img-src 'self' data: blob:; "
                           "object-src 'none'; frame-src blob:; base-uri 'none'; form-action 'none'; "
                           "frame-ancestors 'none'")


def current_release() -> Release:
    """The release this app serves: its files, its words and its ``PAGE_RELEASE`` setting."""
    return release(tuple((lang, page_words(lang)) for lang in LANGUAGES),
                   str(current_app.config.get("PAGE_RELEASE", "")))


@page.record_once
def release_at_start(state):
    """The release made with the app, not on the first phone's request: bundling the page (esbuild) takes 0.2 s
    quiet and over a second on a loaded machine, which a new server's first page waited for
    (tests/e2e/test_reach.py, whose first ``goto`` of a new server has 10 s). Once a process (``release``'s cache)."""
    with state.app.app_context():
        current_release()


def revalidated(body: bytes, content_type: str):
    """``body`` with an ETag, asked for again on every load (a 304 while unchanged)."""
    response = make_response(body)
    response.headers["Content-Type"] = content_type
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@page.get("/")
@page.get("/app/index.html")  # the file itself names no release: its address answers the page as ``/`` does
def index():
    """The single page, naming its release's assets and carrying the words and rule sets of the language the
    browser prefers (as i18n.js picks it, English when none it speaks); the browser revalidates it each time."""
    language = language_from_accept(request.accept_languages.values(), ENGLISH)
    page_html = current_release().page_html(language, page_words(language), page_rulesets(language))
    response = revalidated(page_html, "text/html; charset=utf-8")
    response.vary.add("Accept-Language")
    return response


@page.after_request
def page_policy(response):
    """The page's policy on every HTML answer of the page: ``/`` and ``/app/index.html`` alike (its static copy),
    so no address of the page runs without it; and how long an asset may be kept (the module docstring)."""
    if response.mimetype == "text/html":
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.format(
            scripts=" ".join(["'self'", *current_release().script_hashes]),
            styles=" ".join(["'self'", *current_release().style_hashes]))
        response.headers["Referrer-Policy"] = "no-referrer"
    if request.endpoint in ("web.static", "web.language_words"):
        kept = current_release().is_current(request.path, request.args.get("v"))
        response.headers["Cache-Control"] = IMMUTABLE if kept else "no-cache"
    return response


@page.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that it may keep ``/`` for offline use; it names the release
    (``VERSION``), so a new release is a new worker."""
    script = WORKER.read_text(encoding="utf-8").replace("const VERSION = 'dev';",
                                                        f"const VERSION = '{current_release().version}';", 1)
    response = revalidated(script.encode(), "text/javascript; charset=utf-8")
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
    """The page's words in `lang` (kept for good at the release's address, ``page_policy``)."""
    if lang not in LANGUAGES:
        abort(404)
    return revalidated(page_words(lang), "application/json")


@cache
def page_words(lang: str) -> bytes:
    """The page's table of `lang` as JSON, characters as they are: 20 KB, where \\u escapes made 28 KB in Chinese."""
    return json.dumps(page_table(lang), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


@cache
def page_rulesets(lang: str) -> bytes:
    """``GET /api/rulesets`` as a reader of `lang` gets it (read in a request of that language: ``index``)."""
    return json.dumps(RuleSetSchema(many=True).dump(rulesets_view()), ensure_ascii=False,
                      separators=(",", ":")).encode()


@page.get("/app/assets.json")
def asset_list():
    """Every file of the release (at its versioned address) and its words, for the service worker to keep before
    the Wi-Fi goes; and the release's version, which the worker checks against its own."""
    current = current_release()
    response = jsonify({"version": current.version,
                        "assets": ["/", "/manifest.webmanifest", *current.kept()]})
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
