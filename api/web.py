"""The phone page (手機記帳頁) at ``/`` and its assets under ``/app/``.

The page is plain HTML, CSS and JavaScript modules (no build step); every asset
is served by this blueprint, so a phone at the table needs nothing from the
internet. The page talks to the JSON API only.

``POST /app/qr.svg`` draws the QR code of a share link (分享連結). The link
carries the session's token in its fragment; it travels here in the request
body, never in a URL, so no access log ever records it.
"""
import io

import segno
from flask import Blueprint, make_response, request, send_from_directory

from ledger.errors import InvalidRequest

page = Blueprint("web", __name__, static_folder="static/app", static_url_path="/app")

MAX_LINK_CHARS = 1000
# Scripts, styles and images come from this server only; blob: for the QR image and the PDF.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
                           "frame-src blob:; base-uri 'none'; form-action 'none'")


@page.get("/")
def index():
    """The single page; the browser revalidates it each time so a new release shows at once."""
    response = send_from_directory(page.static_folder, "index.html", max_age=0)
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
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
