"""A group's reports: the group sheet (PDF) and the standings, balances and payments CSVs (API.md: Groups).

- ``GET /api/groups/<id>/report.pdf?from=&to=&season=``: standings over the
  period, the open balances and the transfers that clear them, a chart of
  cumulative net money, the period's evenings (``reports.group``).
- ``GET …/standings.csv?from=&to=&season=&min_evenings=``, ``…/balances.csv``,
  ``…/payments.csv``: UTF-8 with a byte order mark.
- ``flask --app api group-report GROUP_ID [-o FILE] [--from DAY] [--to DAY]``
  writes the same PDF (no token: whoever runs it owns the database).

Any token of the group reads them, as a header or, for links, as ``?token=``.
"""
import datetime
from pathlib import Path

import click
from flask import current_app
from flask.views import MethodView
from sqlmodel import Session

from api import group_figures, group_records
from api.db import get_session
from api.errors import JsonErrorSchema
from api.group_schemas import PeriodQuerySchema, StandingsQuerySchema
from api.groups import GroupBlueprint, current_group
from api.reports import MAX_NAME_CHARS, UNSAFE_IN_FILENAMES, download, file_response
from ledger import group_store
from reports.fonts import font_from_environment
from reports.group import GroupEvening, GroupReport, balances_csv, payments_csv, render_group_pdf, standings_csv

blp = GroupBlueprint("group_reports", __name__, url_prefix="/api/groups", cli_group=None,
                     description="The group sheet (PDF) and the standings, balances and payments CSVs")

CSV = "text/csv; charset=utf-8"
PERIOD_ERRORS = "from after to, or an unknown season"


@blp.route("/<session_id:group_id>/report.pdf")
class ReportPdf(MethodView):
    @blp.group_token(in_query=True)
    @blp.arguments(PeriodQuerySchema, location="query")
    @blp.doc(responses=file_response("application/pdf", "The group sheet; the file name holds the group's name"))
    @blp.alt_response(422, schema=JsonErrorSchema, description=PERIOD_ERRORS)
    def get(self, query, group_id):
        """The group sheet (A4 PDF): standings over the period, open balances and transfers, a chart, evenings."""
        db = get_session()
        first, last = group_figures.period(db, group_id, query)
        pdf = group_pdf(db, current_group(), first, last)
        return download(pdf, "application/pdf", filename(current_group(), "pdf"))


@blp.route("/<session_id:group_id>/standings.csv")
class StandingsCsv(MethodView):
    @blp.group_token(in_query=True)
    @blp.arguments(StandingsQuerySchema, location="query")
    @blp.doc(responses=file_response("text/csv", "The standings, one row per member in rank order"))
    @blp.alt_response(422, schema=JsonErrorSchema, description=PERIOD_ERRORS)
    def get(self, query, group_id):
        """The standings over the period as CSV (UTF-8 with BOM)."""
        db = get_session()
        first, last = group_figures.period(db, group_id, query)
        rows = group_figures.standings_view(db, group_id, first, last, query["min_evenings"])
        return download(standings_csv(rows), CSV, filename(current_group(), "csv", "standings"))


@blp.route("/<session_id:group_id>/balances.csv")
class BalancesCsv(MethodView):
    @blp.group_token(in_query=True)
    @blp.doc(responses=file_response("text/csv", "Each member's open balance"))
    def get(self, group_id):
        """Each member's open balance as CSV (UTF-8 with BOM)."""
        members = group_records.balances(get_session(), group_id)["members"]
        return download(balances_csv(members), CSV, filename(current_group(), "csv", "balances"))


@blp.route("/<session_id:group_id>/payments.csv")
class PaymentsCsv(MethodView):
    @blp.group_token(in_query=True)
    @blp.doc(responses=file_response("text/csv", "Every payment, voided ones marked"))
    def get(self, group_id):
        """Every payment as CSV (UTF-8 with BOM), members by their current names."""
        db = get_session()
        names = group_records.member_names(db, group_id)
        payments = [group_records.payment_view(payment, names) for payment in group_store.list_payments(db, group_id)]
        return download(payments_csv(payments), CSV, filename(current_group(), "csv", "payments"))


@blp.cli.command("group-report")
@click.argument("group_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the PDF (default: <group name> <date>.pdf here)")
@click.option("--from", "first", type=click.DateTime(["%Y-%m-%d"]), help="The first day of the period")
@click.option("--to", "last", type=click.DateTime(["%Y-%m-%d"]), help="The last day of the period")
def group_report_command(group_id, output, first, last):
    """Write the group sheet (PDF) of group GROUP_ID."""
    first, last = first and first.date(), last and last.date()
    if first and last and first > last:
        raise click.BadParameter("--from is after --to", param_hint="--from")
    db = get_session()
    group = group_store.find_group(db, group_id)
    if group is None:
        raise click.ClickException(f"No group {group_id!r}.")
    path = output or Path(filename(group, "pdf"))
    path.write_bytes(group_pdf(db, group, first, last))
    click.echo(f"Wrote {path}")


def group_pdf(db: Session, group: group_store.GroupRow, first: datetime.date | None,
              last: datetime.date | None) -> bytes:
    """The group sheet: standings and evenings of the period; the balances open now (they know no period)."""
    balances = group_records.balances(db, group.id)
    names = group_records.member_names(db, group.id)
    evenings = [GroupEvening(session.id, session.name, evening.day, session.ruleset, session.hand_count,
                             _totals_by_member(session.totals, players, names))
                for evening, session, players in _evenings(db, group.id, first, last)]
    report = GroupReport(group.name, group_figures.standings_view(db, group.id, first, last), balances["balances"],
                         balances["transfers"], evenings, first, last)
    return render_group_pdf(report, font_from_environment(current_app.config.get("REPORT_FONT")))


def _evenings(db: Session, group_id: str, first: datetime.date | None, last: datetime.date | None):
    """``(GroupEveningRow, SessionRow, players)`` of the group's evenings in the period."""
    evenings = [(evening, session) for evening, session in group_store.list_evenings(db, group_id)
                if (first is None or evening.day >= first) and (last is None or evening.day <= last)]
    players = group_store.evening_players(db, [session.id for _, session in evenings])
    return [(evening, session, players[session.id]) for evening, session in evenings]


def _totals_by_member(totals: dict, players: dict, names: dict) -> dict[str, int]:
    """An evening's totals by its members' current names."""
    by_member: dict[str, int] = {}
    for player, amount in totals.items():
        name = names[players[player]]
        by_member[name] = by_member.get(name, 0) + amount
    return by_member


def filename(group: group_store.GroupRow, extension: str, what: str = "") -> str:
    """``<group name> [what ]<today>.<extension>``, without characters file systems refuse."""
    name = UNSAFE_IN_FILENAMES.sub("_", group.name).strip()[:MAX_NAME_CHARS]
    return f"{name} {what + ' ' if what else ''}{datetime.date.today().isoformat()}.{extension}"
