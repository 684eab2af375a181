"""A competition's reports (API.md: Competitions): the table cards, the results sheet, the standings picture.

- ``GET /api/competitions/<id>/tables.pdf?round=n[&lang=&tz=]``: one page per table of round ``n`` (by
  default the latest drawn): seats and winds, the QR code of the table's scoring link, the round's end on
  the clock of ``tz`` once its clock has started (``reports.competition.render_table_cards``).
  **The organiser's token only**: the cards carry the tables' write links, which only the organiser's token
  derives (``api.competitions.access.table_tokens``). The read-only token is refused (403) rather than
  given cards with read links: a card on a table is there to score it, and one that only watches would
  look the same and leave the table unable to record a hand, found out only when the round starts
  (``tests/api/competitions/test_competition_reports.py``).
- ``GET …/report.pdf[?lang=]``: the results sheet, final once every round has ended, else as it stands.
- ``GET …/standings.png[?lang=]``: the standings as a picture for chat apps (as the evening's card.png and
  the group's standings.png, ``reports.card``).

Either token reads the sheet and the picture, as a header or, for links, as ``?token=``; every text is in
``?lang=``, else the reader's ``Accept-Language``, else 繁體中文 (as the evening's and the group's). A round
past the competition's is a 404, one of its rounds not yet drawn a 409, each in the reader's language.

**The scoring link** is the one a phone opens, as the evening's Share view builds it (``share.js``,
``reach.js``): ``<origin>/#s=<evening>&t=<write token>&r=<read token>``, the origin being ``PUBLIC_URL``
when set, else ``NETWORK_URL`` when the organiser reached this server on a loopback address (where a link
would open nothing on another phone), else the address the organiser's request came to. When that is
still a loopback address, each card says that no phone can open its link.
"""
import datetime
import ipaddress
from urllib.parse import quote, urlsplit
from zoneinfo import ZoneInfo

import marshmallow as ma
from flask import current_app, request
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import fields, validate

from api.competitions.access import ORGANIZER, CompetitionBlueprint, current_competition, table_tokens
from api.competitions.service import Snapshot
from api.competitions.views import standings_view
from api.http.auth import TOKEN_QUERY, bearer_token, current_access
from api.http.db import get_db
from api.http.errors import JsonErrorSchema, Missing
from api.http.files import LanguageQuerySchema, configured_font, download, file_name, file_response, picture
from api.http.language import reader_language, say
from api.sessions.schemas import valid_time_zone
from ledger.competition import MAX_ROUNDS
from ledger.draw import WINDS
from ledger.store import as_utc
from reports.card import render_card
from reports.competition import (ResultsSheet, TableCard, TableCards, render_results_sheet, render_table_cards,
                                 standings_card)

blp = CompetitionBlueprint("competition_reports", __name__, url_prefix="/api/competitions",
                           description="A competition's table cards and results sheet (PDF), its standings picture")
BAD_QUERY = "an unknown lang or tz, or a round that is not a whole number from 1"


class ReportQuerySchema(LanguageQuerySchema):
    token = fields.String(load_only=True, metadata={"description": TOKEN_QUERY["description"]})


class TablesQuerySchema(ReportQuerySchema):
    round = fields.Integer(validate=validate.Range(min=1, max=MAX_ROUNDS), metadata={
        "description": "The round whose tables to print; by default the latest drawn"})
    tz = fields.String(load_default="UTC", validate=valid_time_zone, metadata={
        "description": "The IANA time zone of the round's end time on the cards, e.g. Asia/Taipei"})


def _today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()  # the UTC day, as the evening's and the CSV's


@blp.route("/<competition_id:competition_id>/tables.pdf")
class TablesPdf(MethodView):
    @blp.competition_token(in_query=True)
    @blp.arguments(TablesQuerySchema, location="query", unknown=ma.RAISE)
    @blp.doc(responses=file_response("application/pdf", "One A4 page per table of the round: seats and winds, "
                                                         "the QR code of its scoring link, the round's end"))
    @blp.alt_response(409, schema=JsonErrorSchema, description="The round (or any round) is not drawn yet")
    @blp.alt_response(422, schema=JsonErrorSchema, description=BAD_QUERY)
    def get(self, query, competition_id):
        """The table cards of a round (the organiser's token only: they carry the tables' scoring links)."""
        if current_access() != ORGANIZER:
            abort(403, message=say("tables_need_organizer"))
        snapshot = Snapshot(get_db(), current_competition())
        found = _round(snapshot, query.get("round"))
        origin, token = scoring_origin(), bearer_token(in_query=True)
        cards = tuple(TableCard(table.number, tuple(zip(WINDS, session.players)),
                                scoring_link(origin, session.id, *table_tokens(token, session.id, table.links)))
                      for table, session in snapshot.tables if table.round == found.number)
        ends = None
        if found.ends_at is not None:
            zone = ZoneInfo(query["tz"])
            ends = as_utc(found.ends_at).astimezone(zone).strftime("%H:%M") + (" UTC" if query["tz"] == "UTC" else "")
        lang = reader_language(query)
        local = origin if _loopback(urlsplit(origin).hostname or "") else None  # no phone opens it: said on each card
        pdf = render_table_cards(TableCards(snapshot.row.name, found.number, cards, ends, local), configured_font(),
                                 lang)
        response = download(pdf, "application/pdf", file_name(snapshot.row.name, "pdf", _today(),
                                                              f"round {found.number} tables"))
        response.vary.add("Accept-Language")
        return response


def _round(snapshot: Snapshot, number: int | None):
    """Round ``number`` of the snapshot (the latest drawn when None): 404 past the competition's rounds, 409
    when not drawn yet."""
    drawn = len(snapshot.rounds)
    if number is None:
        if not drawn:
            abort(409, message=say("no_round_drawn"))
        return snapshot.rounds[-1]
    if number > snapshot.settings.rounds:
        raise Missing("no_round", number=number)
    if number > drawn:
        abort(409, message=say("round_not_drawn", number=number, drawn=drawn))
    return snapshot.rounds[number - 1]


def scoring_origin() -> str:
    """Where the links on the cards start (see the module's docstring)."""
    config = current_app.config
    if config.get("PUBLIC_URL"):
        return config["PUBLIC_URL"]
    if _loopback(urlsplit(request.host_url).hostname or "") and config.get("NETWORK_URL"):
        return config["NETWORK_URL"]
    return request.host_url.rstrip("/")


def _loopback(host: str) -> bool:
    """
    >>> _loopback("127.0.0.1"), _loopback("::1"), _loopback("localhost"), _loopback("192.168.1.23")
    (True, True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def scoring_link(origin: str, session_id: str, token: str, read_token: str) -> str:
    """The link that opens the table's evening to keep score, as the Share view writes it.

    >>> scoring_link("http://192.168.1.23:5000", "ab12", "w+/=", "r")
    'http://192.168.1.23:5000/#s=ab12&t=w%2B%2F%3D&r=r'
    """
    return f"{origin}/#s={quote(session_id, safe='')}&t={quote(token, safe='')}&r={quote(read_token, safe='')}"


def results_sheet(snapshot: Snapshot) -> ResultsSheet:
    """What the results sheet and the picture show of the competition as it is now."""
    names = {entrant.number: entrant.name for entrant in snapshot.entrants}
    settings = snapshot.settings
    return ResultsSheet(snapshot.row.name, snapshot.row.ruleset, settings.rounds,
                        sum(found.ended_at is not None for found in snapshot.rounds), settings.placement_points,
                        standings_view(snapshot.standings(), names), _today())


@blp.route("/<competition_id:competition_id>/report.pdf")
class ReportPdf(MethodView):
    @blp.competition_token(in_query=True)
    @blp.arguments(ReportQuerySchema, location="query", unknown=ma.RAISE)
    @blp.doc(responses=file_response("application/pdf", "The results sheet: rank, points, net and every round "
                                                         "of every entrant, the tie-breaks stated"))
    @blp.alt_response(422, schema=JsonErrorSchema, description="an unknown lang")
    def get(self, query, competition_id):
        """The results sheet (A4 PDF): final once every round has ended, else the standings as they are."""
        sheet = results_sheet(Snapshot(get_db(), current_competition()))
        pdf = render_results_sheet(sheet, configured_font(), reader_language(query))
        response = download(pdf, "application/pdf", file_name(sheet.name, "pdf", sheet.made, "results"))
        response.vary.add("Accept-Language")
        return response


@blp.route("/<competition_id:competition_id>/standings.png")
class StandingsPng(MethodView):
    @blp.competition_token(in_query=True)
    @blp.arguments(ReportQuerySchema, location="query", unknown=ma.RAISE)
    @blp.doc(responses=file_response("image/png", "The standings card, 1080 px wide and at least 1920 px tall"))
    @blp.alt_response(422, schema=JsonErrorSchema, description="an unknown lang")
    def get(self, query, competition_id):
        """The standings as a picture for chat apps: the leading ranks with points and net money."""
        sheet = results_sheet(Snapshot(get_db(), current_competition()))
        png = render_card(standings_card(sheet, reader_language(query)), configured_font())
        return picture(png, file_name(sheet.name, "png", sheet.made, "standings"))
