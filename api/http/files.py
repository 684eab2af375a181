"""What a download or a picture needs: the query it takes (``lang``, ``round_to``), its answer and its file
name. A picture is inline and never cached, varying with ``Accept-Language``.
"""
import datetime
import re
import unicodedata
from urllib.parse import quote

import marshmallow as ma
from flask import Response, current_app
from marshmallow import fields, validate

from api.http.errors import JsonErrorSchema
from api.http.fields import Bounded
import reports
from words import ACCEPTED

UNSAFE_IN_FILENAMES = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')
MAX_NAME_CHARS = 80
CARD_SIZE = "1080 px wide and at least 1920 px tall, in the reader's language"
BAD_ROUND_TO = ("round_to is not a whole number from 1 to MAX_ROUND_TO (the smallest note or coin, "
                "e.g. 10 or 100)")


class RoundingQuerySchema(ma.Schema):
    # At most MAX_ROUND_TO: beyond any note, every total rounds to 0 and the sheet says nothing.
    round_to = Bounded(minimum=1, limit_key="MAX_ROUND_TO", metadata={
        "description": "Round every total to a multiple of this (the table's smallest note or coin)"})


class LanguageQuerySchema(ma.Schema):
    lang = fields.String(validate=validate.OneOf(ACCEPTED), metadata={
        "description": "The language of every text: zh-Hant, zh-Hans or en (zh, as before 简体中文, is zh-Hant); "
                       "by default the reader's Accept-Language, else zh-Hant"})


def file_response(content_type: str, description: str) -> dict:
    """The OpenAPI `responses` entry of a file download."""
    binary = {"schema": {"type": "string", "format": "binary"}}
    return {200: {"description": description, "content": {content_type: binary}}}


def file_name(name: str, extension: str, day: datetime.date, what: str = "") -> str:
    """``<name> [what ]<day>.<extension>``, without characters file systems refuse; the day once, when the name
    already holds it.

    >>> file_name('週五 "Amy/Ben"', "pdf", datetime.date(2024, 5, 3))
    '週五 _Amy_Ben_ 2024-05-03.pdf'
    >>> file_name("Club", "png", datetime.date(2026, 11, 6), "standings")
    'Club standings 2026-11-06.png'
    >>> file_name("2026-12-07", "pdf", datetime.date(2026, 12, 7))
    '2026-12-07.pdf'
    """
    safe = UNSAFE_IN_FILENAMES.sub("_", name).strip()[:MAX_NAME_CHARS]
    day_text = "" if day.isoformat() in safe else day.isoformat()
    return " ".join(part for part in (safe, what, day_text) if part) + f".{extension}"


def content_disposition(filename: str, disposition: str = "attachment") -> str:
    """An attachment (or `disposition`) named `filename`: RFC 5987 ``filename*`` in UTF-8, and an ASCII fallback.

    >>> print(content_disposition("週五 Friday 2024-05-03.pdf"))
    attachment; filename="Friday 2024-05-03.pdf"; filename*=UTF-8''%E9%80%B1%E4%BA%94%20Friday%202024-05-03.pdf
    """
    fallback = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    fallback = " ".join(fallback.split())
    return f"{disposition}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


def download(data: bytes, content_type: str, filename: str) -> Response:
    """A file to download, named `filename`, with `content_type` as given: a ``mimetype`` would get a second
    ``charset`` on the CSVs (tests/api/sessions/test_reports.py::test_csv_export)."""
    response = Response(data, content_type=content_type)
    response.headers["Content-Disposition"] = content_disposition(filename)
    return response


def picture(png: bytes, filename: str) -> Response:
    """A card to show: inline, so that a browser shows it and a phone shares or keeps it; never cached, as the
    evening or the group goes on; in the reader's language, so it varies with ``Accept-Language``."""
    response = Response(png, mimetype="image/png")
    response.headers["Content-Disposition"] = content_disposition(filename, "inline")
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Accept-Language")
    return response


def card_route(blp, query_schema: ma.Schema, what: str, errors: str, size: str = CARD_SIZE, **arguments):
    """What every picture route declares: its query (``blp.arguments``), its PNG answer and its 422."""

    def decorate(view):
        view = blp.alt_response(422, schema=JsonErrorSchema, description=errors)(view)
        view = blp.doc(responses=file_response("image/png", f"{what}, {size}"))(view)
        return blp.arguments(query_schema, location="query", **arguments)(view)

    return decorate


def card_picture(card, filename: str) -> Response:
    """A card (``reports.card``) drawn in the configured font, answered as ``picture`` does."""
    return picture(reports.card.render_card(card, configured_font()), filename)


def configured_font():
    """The font of the PDF and the pictures (``REPORT_FONT``: app config, else environment; ``reports.fonts``)."""
    return reports.fonts.font_from_environment(current_app.config.get("REPORT_FONT"))
