"""A group's reports: the group sheet (PDF), the standings and balances cards (PNG) and the standings, balances
and payments CSVs (API.md: Groups, Pictures); ``flask group-report`` writes the same PDF.

Any token of the group reads them, as a header or, for links, ``?token=``. The PDF and pictures speak
``?lang=``, else ``Accept-Language``, else 繁體中文; CSV headers are the API's field names.
"""
import datetime
from pathlib import Path

import click
from flask import current_app
from flask.views import MethodView
from sqlmodel import Session

from api.groups import figures, service
from api.groups.schemas import BalancesCardQuerySchema, SheetQuerySchema, StandingsCardQuerySchema, StandingsQuerySchema
from api.groups.views import balances_view, payment_view
from api.sessions.views import hands_played
from api.http.auth import TOKEN_QUERY, GroupBlueprint, current_group
from api.http.db import database_name, get_db
from api.http.errors import JsonErrorSchema
from api.http.files import card_picture, card_route, configured_font, download, file_name, file_response, picture
from api.http.language import reader_language
from ledger import group_store
import reports
from words import ACCEPTED, TRADITIONAL, word

blp = GroupBlueprint("group_reports", __name__, url_prefix="/api/groups", cli_group=None,
                     description="The group sheet (PDF), the standings and balances pictures (PNG), and the standings, "
                                 "balances and payments CSVs")

CSV = "text/csv; charset=utf-8"
PERIOD_ERRORS = "from after to, or an unknown season"
BAD_LANG = "an unknown lang"


@blp.route("/<group_id:group_id>/report.pdf", parameters=[TOKEN_QUERY])
class ReportPdf(MethodView):
    @blp.group_token(in_query=True)
    @blp.arguments(SheetQuerySchema, location="query")
    @blp.doc(responses=file_response("application/pdf", "The group sheet; the file name holds the group's name"))
    @blp.alt_response(422, schema=JsonErrorSchema, description=f"{PERIOD_ERRORS}; or {BAD_LANG}")
    def get(self, query, group_id):
        """The group sheet (A4 PDF): standings over the period, open balances and transfers, a chart, evenings."""
        db = get_db()
        first, last = figures.period(db, group_id, query)
        report = group_report(db, current_group(), first, last)
        pdf = reports.group.render_group_pdf(report, configured_font(), reader_language(query))
        response = download(pdf, "application/pdf", filename(current_group(), "pdf"))
        response.vary.add("Accept-Language")
        return response


@blp.route("/<group_id:group_id>/standings.png", parameters=[TOKEN_QUERY])
class StandingsCard(MethodView):
    @blp.group_token(in_query=True)
    @card_route(blp, StandingsCardQuerySchema, "The standings card", f"{PERIOD_ERRORS}; or {BAD_LANG}")
    def get(self, query, group_id):
        """The standings over the period as a picture for chat apps: each member's net money in rank order and
        their cumulative net money evening by evening."""
        db = get_db()
        first, last = figures.period(db, group_id, query)
        report = group_report(db, current_group(), first, last, query["min_evenings"])
        card = reports.group_card.standings_card(report, reader_language(query))
        return card_picture(card, filename(current_group(), "png", "standings"))


@blp.route("/<group_id:group_id>/members/<member>/chart.png", parameters=[TOKEN_QUERY])
class MemberChart(MethodView):
    @blp.group_token(in_query=True)
    @card_route(blp, SheetQuerySchema, "The member's season", f"{PERIOD_ERRORS}; or {BAD_LANG}",
                size="1080 px wide, in the reader's language")
    def get(self, query, group_id, member):
        """A member's season as a picture: cumulative net money over the period's evenings, and under it the
        rating over the period's closed evenings (each member starting fresh)."""
        db = get_db()
        found = service.member_in_path(db, group_id, member)
        first, last = figures.period(db, group_id, query)
        series, rated = figures.member_season(db, group_id, found, first, last)
        lang = reader_language(query)
        subtitle = " · ".join((current_group().name, reports.group_card.period_words(first, last, lang),
                               word(lang, "card.evenings", count=len(series))))
        png = reports.member_chart.member_picture(found.name, subtitle, series, rated, lang, configured_font().name)
        return picture(png, filename(current_group(), "png", found.name))


@blp.route("/<group_id:group_id>/balances.png", parameters=[TOKEN_QUERY])
class BalancesCard(MethodView):
    @blp.group_token(in_query=True)
    @card_route(blp, BalancesCardQuerySchema, "The balances card", f"round_to out of range; or {BAD_LANG}")
    def get(self, query, group_id):
        """The open balances as a picture for chat apps, and the transfers that clear them (rounded with
        round_to; said so when they are not proven the fewest)."""
        balances = balances_view(*service.group_balances(get_db(), group_id, query.get("round_to")))
        today = datetime.datetime.now(datetime.timezone.utc).date()  # the UTC day, as an evening's
        card = reports.group_card.balances_card(current_group().name, balances, today, reader_language(query))
        return card_picture(card, filename(current_group(), "png", "balances"))


@blp.route("/<group_id:group_id>/standings.csv", parameters=[TOKEN_QUERY])
class StandingsCsv(MethodView):
    @blp.group_token(in_query=True)
    @blp.arguments(StandingsQuerySchema, location="query")
    @blp.doc(responses=file_response("text/csv", "The standings, one row per member in rank order"))
    @blp.alt_response(422, schema=JsonErrorSchema, description=PERIOD_ERRORS)
    def get(self, query, group_id):
        """The standings over the period as CSV (UTF-8 with BOM)."""
        db = get_db()
        first, last = figures.period(db, group_id, query)
        rows = figures.standings_view(db, group_id, first, last, query["min_evenings"])
        return download(reports.group.standings_csv(rows), CSV, filename(current_group(), "csv", "standings"))


@blp.route("/<group_id:group_id>/balances.csv", parameters=[TOKEN_QUERY])
class BalancesCsv(MethodView):
    @blp.group_token(in_query=True)
    @blp.doc(responses=file_response("text/csv", "Each member's open balance"))
    def get(self, group_id):
        """Each member's open balance as CSV (UTF-8 with BOM)."""
        members = balances_view(*service.group_balances(get_db(), group_id))["members"]
        return download(reports.group.balances_csv(members), CSV, filename(current_group(), "csv", "balances"))


@blp.route("/<group_id:group_id>/payments.csv", parameters=[TOKEN_QUERY])
class PaymentsCsv(MethodView):
    @blp.group_token(in_query=True)
    @blp.doc(responses=file_response("text/csv", "Every payment, voided ones marked"))
    def get(self, group_id):
        """Every payment as CSV (UTF-8 with BOM), members by their current names."""
        db = get_db()
        names = figures.member_names(db, group_id)
        payments = [payment_view(payment, names) for payment in group_store.list_payments(db, group_id)]
        return download(reports.group.payments_csv(payments), CSV, filename(current_group(), "csv", "payments"))


@blp.cli.command("group-report")
@click.argument("group_id")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the PDF (default: <group name> <date>.pdf here)")
@click.option("--from", "first", type=click.DateTime(["%Y-%m-%d"]), help="The first day of the period")
@click.option("--to", "last", type=click.DateTime(["%Y-%m-%d"]), help="The last day of the period")
@click.option("--lang", type=click.Choice(ACCEPTED), default=TRADITIONAL, show_default=True,
              help="The language of the sheet's words")
def group_report_command(group_id, output, first, last, lang):
    """Write the group sheet (PDF) of group GROUP_ID."""
    first, last = first and first.date(), last and last.date()
    if first and last and first > last:
        raise click.BadParameter("--from is after --to", param_hint="--from")
    db = get_db()
    group = group_store.find_group(db, group_id)
    if group is None:
        database = database_name(current_app.config["DATABASE_URL"])
        raise click.ClickException(f"No group {group_id!r} in {database}.")
    path = output or Path(filename(group, "pdf"))
    path.write_bytes(reports.group.render_group_pdf(group_report(db, group, first, last), configured_font(), lang))
    click.echo(f"Wrote {path}")


def group_report(db: Session, group: group_store.GroupRow, first: datetime.date | None,
                 last: datetime.date | None, min_evenings: int = 0) -> "reports.group.GroupReport":
    """What the group sheet and the standings card show: standings and evenings of the period; the balances
    open now (they know no period)."""
    balances = balances_view(*service.group_balances(db, group.id))
    names = figures.member_names(db, group.id)
    evenings = [reports.group.GroupEvening(session.id, session.name, evening.day, session.ruleset,
                                           hands_played(session), _totals_by_member(session.totals, players, names))
                for evening, session, players in _evenings(db, group.id, first, last)]
    standings = figures.standings_view(db, group.id, first, last, min_evenings)
    return reports.group.GroupReport(group.name, standings, balances["balances"], balances["transfers"], evenings,
                                     first, last)


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
    """``<group name> [what ]<today>.<extension>`` (``api.http.files.file_name``)."""
    return file_name(group.name, extension, datetime.date.today(), what)
