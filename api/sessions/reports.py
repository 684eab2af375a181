"""Settlement (結算) and reports (報表) of a session (API.md: Settlement and reports); ``flask report`` writes
the same PDF (no token: whoever runs it owns the database).

card.png and chart.png (the running totals alone) take the token as ``?token=`` too, for an ``<img>`` or a
shared link. Without ``lang`` the PDF and pictures speak ``Accept-Language``, else 繁體中文; the font is
``reports.fonts``'.
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
                            file_name, file_response, picture)
from api.http.language import reader_language
from api.http.limits import limit
from api.sessions.schemas import CardQuerySchema, PictureQuerySchema, ReportQuerySchema, SettlementSchema
from ledger import store
from ledger.entries import HAND
from ledger.settlement import running_totals, settle
import reports
from reports.build import build_report
from reports.csv import render_csv
from reports.model import Report
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
        session = current_session()
        hands = store.list_entries(get_db(), session.id, HAND)
        return {**settle(session.totals, query.get("round_to")).to_dict(),
                "running_totals": running_totals(session.totals, (hand.result["payments"] for hand in hands
                                                                  if not hand.void))}


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
        pdf = reports.pdf.render_pdf(report, configured_font(), lang=lang, zone=ZoneInfo(query["tz"]))
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
        return card_picture(reports.card.session_card(report, lang), report_filename(report, "png"))


@blp.route("/<session_id:session_id>/chart.png")
class RunningTotalsChart(MethodView):
    @blp.secured(in_query=True)
    @card_route(blp, PictureQuerySchema, "The running totals, one line per player", "An unknown lang",
                size="1080 px wide, in the reader's language", unknown=ma.RAISE)
    def get(self, query, session_id):
        """Each player's total after every played hand as a picture for chat apps (a void leaves no point)."""
        lang = reader_language(query)
        report = session_report(current_session(), lang=lang)
        return picture(reports.chart.evening_picture(report, lang, configured_font()), report_filename(report, "png"))


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
    path.write_bytes(reports.pdf.render_pdf(report, configured_font(), lang=lang))
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
