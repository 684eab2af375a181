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

Every request needs the session's bearer token (``api.http.auth``). Without ``lang`` the
PDF and the picture speak the reader's ``Accept-Language`` (``api.http.language``), else 繁體中文. The PDF font
comes from ``REPORT_FONT`` (app config, else environment; see ``reports.fonts``).
"""
from pathlib import Path
from zoneinfo import ZoneInfo

import click
import marshmallow as ma
from flask import current_app
from flask.views import MethodView

from api.http.auth import SecuredBlueprint, current_session
from api.http.db import database_name, get_db
from api.http.errors import JsonErrorSchema
from api.http.files import (BAD_ROUND_TO, RoundingQuerySchema, card_picture, card_route, configured_font, download,
                            file_name, file_response)
from api.http.language import reader_language
from api.http.limits import limit
from api.sessions.schemas import CardQuerySchema, ReportQuerySchema, SettlementSchema
from ledger import store
from ledger.settlement import settle
from reports.build import build_report
from reports.card import session_card
from reports.csv import render_csv
from reports.model import Report
from reports.pdf import render_pdf
from words import ACCEPTED, TRADITIONAL

blp = SecuredBlueprint("reports", __name__, url_prefix="/api/sessions", cli_group=None,
                       description="Settlement with the fewest transfers, the PDF settlement sheet, the hands CSV")


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
        pdf = render_pdf(report, configured_font(), lang=lang, zone=ZoneInfo(query["tz"]))
        response = download(pdf, "application/pdf", report_filename(report, "pdf"))
        response.vary.add("Accept-Language")
        return response


@blp.route("/<session_id:session_id>/card.png")
class SettlementCard(MethodView):
    @blp.secured(in_query=True)
    @card_route(blp, CardQuerySchema, "The settlement card", BAD_ROUND_TO + "; or an unknown lang", unknown=ma.RAISE)
    def get(self, query, session_id):
        """The settlement as a phone-shaped picture for chat apps: totals, transfers, running totals."""
        lang = reader_language(query)
        report = session_report(current_session(), query.get("round_to"), lang)
        return card_picture(session_card(report, lang), report_filename(report, "png"))


@blp.route("/<session_id:session_id>/hands.csv")
class HandsCsv(MethodView):
    @blp.secured
    @blp.doc(responses=file_response("text/csv",
                                     "One row per hand per seated player with the payment; UTF-8 with BOM"))
    def get(self, session_id):
        """Every hand as CSV, voided ones included (marked, without payments)."""
        report = session_report(current_session())
        return download(render_csv(report), "text/csv; charset=utf-8", report_filename(report, "csv"))


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
    session = store.find_session(get_db(), session_id)
    if session is None:
        database = database_name(current_app.config["DATABASE_URL"])
        raise click.ClickException(f"No session {session_id!r} in {database}.")
    report = session_report(session, round_to, lang)
    path = output or Path(report_filename(report, "pdf"))
    path.write_bytes(render_pdf(report, configured_font(), lang=lang))
    hands, participants = len(report.hands), len(report.participants)
    click.echo(f"Wrote {path} ({hands} hand{'' if hands == 1 else 's'}, "
               f"{participants} participant{'' if participants == 1 else 's'})")


def session_report(session: store.SessionRow, round_to: int | None = None, lang: str = TRADITIONAL) -> Report:
    """The ``reports.model.Report`` of a stored session, from its stored entries and audit trail; names in `lang`."""
    db = get_db()
    return build_report(session, store.list_entries(db, session.id), round_to, store.list_audits(db, session.id),
                        lang)


def report_filename(report: Report, extension: str) -> str:
    """``<session name> <date>.<extension>`` (``api.http.files.file_name``)."""
    return file_name(report.header.name, extension, report.header.date)
