"""Settlement (結算) and reports (報表) of a session (API.md: Settlement and reports).

- ``GET /api/sessions/<id>/settlement[?round_to=N]``: every participant's total
  and the fewest transfers that settle them; with ``round_to`` the totals are
  first rounded to the table's smallest note and ``rounding`` says how.
- ``GET /api/sessions/<id>/report.pdf[?round_to=N&lang=en&tz=Asia/Taipei]``: the printable settlement
  sheet, rounded only when asked, its sentences in ``lang`` and its times in ``tz``.
- ``GET /api/sessions/<id>/hands.csv``: one row per hand per seated player.
- ``GET /api/sessions/<id>/card.png[?round_to=N&lang=zh-Hans]``: the settlement as a picture for chat
  apps (``reports.card``); the token may also come as ``?token=``, for an ``<img>`` or a shared link.
- ``flask --app api report SESSION_ID [-o FILE] [--round-to N] [--lang en]`` writes the
  same PDF from the command line (no token: whoever runs it owns the database).

Every request needs the session's bearer token (``api.auth``). Without ``lang`` the
PDF and the picture speak the reader's ``Accept-Language`` (``api.language``), else 繁體中文. The PDF font
comes from ``REPORT_FONT`` (app config, else environment; see ``reports.fonts``).
"""
import re
import unicodedata
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
from urllib.parse import quote

import click
import marshmallow as ma
from flask import Response, current_app
from flask.views import MethodView
from marshmallow import fields, validate

from api.auth import SecuredBlueprint, current_session
from api.config import limit
from api.db import get_session
from api.errors import JsonErrorSchema
from api.schemas import Bounded
from ledger import store
from ledger.settlement import settle
from api.language import request_language
from reports.build import build_report
from reports.card import render_card, session_card
from reports.csv import render_csv
from reports.fonts import font_from_environment
from reports.model import SessionHeader
from reports.pdf import render_pdf
from reports.words import ACCEPTED, TRADITIONAL, language

blp = SecuredBlueprint("reports", __name__, url_prefix="/api/sessions", cli_group=None,
                       description="Settlement with the fewest transfers, the PDF settlement sheet, the hands CSV")

UNSAFE_IN_FILENAMES = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')
MAX_NAME_CHARS = 80
BAD_ROUND_TO = ("round_to is not a whole number from 1 to MAX_ROUND_TO (the smallest note or coin, "
                "e.g. 10 or 100)")


def valid_time_zone(name: str) -> None:
    """A marshmallow validator: `name` must be an IANA time zone this server knows."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ma.ValidationError(f"unknown time zone {name!r}; give an IANA name such as Asia/Taipei") from error


def file_response(content_type: str, description: str) -> dict:
    """The OpenAPI `responses` entry of a file download."""
    binary = {"schema": {"type": "string", "format": "binary"}}
    return {200: {"description": description, "content": {content_type: binary}}}


class RoundingQuerySchema(ma.Schema):
    # At most MAX_ROUND_TO: beyond any note, every total rounds to 0 and the sheet says nothing.
    round_to = Bounded(minimum=1, limit_key="MAX_ROUND_TO", metadata={
        "description": "Round every total to a multiple of this (the table's smallest note or coin)"})


class LanguageQuerySchema(ma.Schema):
    lang = fields.String(validate=validate.OneOf(ACCEPTED), metadata={
        "description": "The language of every text: zh-Hant, zh-Hans or en (zh, as before 简体中文, is zh-Hant); "
                       "by default the reader's Accept-Language, else zh-Hant"})


class ReportQuerySchema(RoundingQuerySchema, LanguageQuerySchema):
    tz = fields.String(load_default="UTC", validate=valid_time_zone, metadata={
        "description": "The IANA time zone of the times shown (corrected 21:14), e.g. Asia/Taipei"})


class CardQuerySchema(RoundingQuerySchema, LanguageQuerySchema):
    token = fields.String(load_only=True, metadata={
        "description": "The session's token, instead of the Authorization header (for an <img> or a link)"})


TransferSchema = ma.Schema.from_dict(
    {"from": fields.String(required=True), "to": fields.String(required=True),
     "amount": fields.Integer(required=True)}, name="Transfer")


class RoundingSchema(ma.Schema):
    round_to = fields.Integer(required=True)
    adjustments = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                              metadata={"description": "Rounded total minus the total, per participant"})
    explanation = fields.String(required=True)


class SettlementSchema(ma.Schema):
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                         metadata={"description": "Every participant's total (rounded when round_to was given)"})
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    rounding = fields.Nested(RoundingSchema, metadata={"description": "Only when round_to was given"})


@blp.route("/<session_id:session_id>/settlement")
class Settlement(MethodView):
    @blp.secured
    @blp.arguments(RoundingQuerySchema, location="query", unknown=ma.RAISE)
    @blp.response(200, SettlementSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description=BAD_ROUND_TO)
    def get(self, query, session_id):
        """Every participant's total and the fewest transfers that settle them (integers only)."""
        return settle(current_session().totals, query.get("round_to")).to_dict()


@blp.route("/<session_id:session_id>/report.pdf")
class ReportPdf(MethodView):
    @blp.secured
    @blp.arguments(ReportQuerySchema, location="query", unknown=ma.RAISE)
    @blp.doc(responses=file_response("application/pdf",
                                     "The settlement sheet; the file name holds the session name and date"))
    @blp.alt_response(422, schema=JsonErrorSchema, description=BAD_ROUND_TO + "; or an unknown lang or tz")
    def get(self, query, session_id):
        """The printable settlement sheet (A4 PDF, Chinese in an embedded font); rounded only with round_to."""
        lang = reader_language(query)
        report = session_report(current_session(), query.get("round_to"), lang)
        pdf = render_pdf(report, font_from_environment(current_app.config.get("REPORT_FONT")), lang=lang,
                         zone=ZoneInfo(query["tz"]))
        response = download(pdf, "application/pdf", report_filename(report.header, "pdf"))
        response.vary.add("Accept-Language")
        return response


@blp.route("/<session_id:session_id>/card.png")
class SettlementCard(MethodView):
    @blp.secured(in_query=True)
    @blp.arguments(CardQuerySchema, location="query", unknown=ma.RAISE)
    @blp.doc(responses=file_response("image/png", "The settlement card, 1080 px wide and at least 1920 px tall"))
    @blp.alt_response(422, schema=JsonErrorSchema, description=BAD_ROUND_TO + "; or an unknown lang")
    def get(self, query, session_id):
        """The settlement as a phone-shaped picture for chat apps: totals, transfers, running totals."""
        lang = reader_language(query)
        report = session_report(current_session(), query.get("round_to"), lang)
        png = render_card(session_card(report, lang), font_from_environment(current_app.config.get("REPORT_FONT")))
        return picture(png, report_filename(report.header, "png"))


def picture(png: bytes, filename: str) -> Response:
    """A card to show: inline, so that a browser shows it and a phone shares or keeps it; never cached, as the
    evening or the group goes on; in the reader's language, so it varies with ``Accept-Language``."""
    response = Response(png, mimetype="image/png")
    response.headers["Content-Disposition"] = content_disposition(filename, "inline")
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Accept-Language")
    return response


def reader_language(query: dict) -> str:
    """``?lang=`` when given, else the reader's ``Accept-Language``, else 繁體中文."""
    return language(query["lang"]) if "lang" in query else request_language(TRADITIONAL)


@blp.route("/<session_id:session_id>/hands.csv")
class HandsCsv(MethodView):
    @blp.secured
    @blp.doc(responses=file_response("text/csv",
                                     "One row per hand per seated player with the payment; UTF-8 with BOM"))
    def get(self, session_id):
        """Every hand as CSV, voided ones included (marked, without payments)."""
        report = session_report(current_session())
        return download(render_csv(report), "text/csv; charset=utf-8", report_filename(report.header, "csv"))


@blp.cli.command("report")
@click.argument("session_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the PDF (default: <session name> <date>.pdf here)")
@click.option("--round-to", type=click.IntRange(min=1), help="Round the totals to this note or coin")
@click.option("--lang", type=click.Choice(ACCEPTED), default=TRADITIONAL, show_default=True,
              help="The language of the sheet's sentences")
def report_command(session_id, output, round_to, lang):
    """Write the settlement sheet (PDF) of session SESSION_ID."""
    if round_to is not None and round_to > limit("MAX_ROUND_TO"):
        raise click.BadParameter(f"at most {limit('MAX_ROUND_TO')}", param_hint="--round-to")
    session = store.find_session(get_session(), session_id)
    if session is None:
        raise click.ClickException(f"No session {session_id!r}.")
    report = session_report(session, round_to, lang)
    path = output or Path(report_filename(report.header, "pdf"))
    path.write_bytes(render_pdf(report, font_from_environment(current_app.config.get("REPORT_FONT")), lang=lang))
    click.echo(f"Wrote {path} ({len(report.hands)} hands, {len(report.participants)} participants)")


def session_report(session: store.SessionRow, round_to: int | None = None, lang: str = TRADITIONAL):
    """The `reports.model.Report` of a stored session, from its stored entries and audit trail; names in `lang`."""
    db = get_session()
    return build_report(session, store.list_entries(db, session.id), round_to, store.list_audits(db, session.id),
                        lang)


def report_filename(header: SessionHeader, extension: str) -> str:
    """`<session name> <date>.<extension>`, without characters file systems refuse.

    >>> import datetime
    >>> header = SessionHeader('週五 "Amy/Ben"', datetime.date(2024, 5, 3), "taiwan", "", {}, {})
    >>> report_filename(header, "pdf")
    '週五 _Amy_Ben_ 2024-05-03.pdf'
    """
    name = UNSAFE_IN_FILENAMES.sub("_", header.name).strip()[:MAX_NAME_CHARS]
    return f"{name} {header.date.isoformat()}.{extension}"


def content_disposition(filename: str, disposition: str = "attachment") -> str:
    """An attachment (or `disposition`) named `filename`: RFC 5987 ``filename*`` in UTF-8, and an ASCII fallback.

    >>> print(content_disposition("週五 Friday 2024-05-03.pdf"))
    attachment; filename="Friday 2024-05-03.pdf"; filename*=UTF-8''%E9%80%B1%E4%BA%94%20Friday%202024-05-03.pdf
    """
    fallback = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    fallback = " ".join(fallback.split())
    return f"{disposition}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


def download(data: bytes, mimetype: str, filename: str) -> Response:
    """A file to download, named `filename`."""
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = content_disposition(filename)
    return response
