"""A competition's reports (API.md: Competitions): the table cards, the results sheet, the standings picture.

The cards are the organiser's alone: one carrying a read link would look the same and leave the table
unable to record. Each document is drawn off the loop once per key (``api.http.rendered``: what it
shows, revisions, language, the links). A card's link is the Share view's, its origin ``PUBLIC_URL``, else
``NETWORK_URL`` on loopback, else the request's; a card says so when no phone can open it.
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

from api.competitions.access import ORGANIZER, CompetitionBlueprint, current_competition
from api.competitions.service import Snapshot, current_snapshot, settings_of
from api.competitions.views import standings_view
from api.http.auth import TOKEN_QUERY, bearer_token, current_access, table_tokens, token_hash
from api.http.db import get_db
from api.http.errors import JsonErrorSchema, Missing
from api.http.files import LanguageQuerySchema, card_route, configured_font, download, file_name, file_response, \
    picture
from api.http.language import reader_language, say
from api.http.rendered import rendered
from api.http.fields import valid_time_zone
from ledger import competition_store
from ledger.competition import MAX_ROUNDS
from ledger.draw import WINDS
from ledger.store import as_utc
import reports

blp = CompetitionBlueprint("competition_reports", __name__, url_prefix="/api/competitions",
                           description="A competition's table cards and results sheet (PDF), its standings picture")
BAD_QUERY = "an unknown lang or tz, or a round that is not a whole number from 1"
TOO_MANY = "Too many documents and pictures with this link (``RATE_LIMIT_DOCUMENTS``)"


class LinkQuerySchema(LanguageQuerySchema):
    token = fields.String(load_only=True, metadata={"description": TOKEN_QUERY["description"]})


class TablesQuerySchema(LinkQuerySchema):
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
    @blp.alt_response(429, schema=JsonErrorSchema, description=TOO_MANY)
    def get(self, query, competition_id):
        """The table cards of a round (the organiser's token only: they carry the tables' scoring links)."""
        if current_access() != ORGANIZER:
            abort(403, message=say("tables_need_organizer"))
        db, row = get_db(), current_competition()
        found = _round(competition_store.list_rounds(db, row.id), settings_of(row).rounds, query.get("round"))
        origin, token, lang = scoring_origin(), bearer_token(in_query=True), reader_language(query)
        tables = competition_store.tables_with_sessions(db, row.id, found.number)
        key = ("tables.pdf", row.id, row.revision, found.number, lang, query["tz"], origin, token_hash(token),
               tuple((session.id, session.revision, table.links) for table, session in tables))  # new links: anew

        def prepare():
            cards = tuple(reports.competition.TableCard(table.number, tuple(zip(WINDS, session.players)),
                                    scoring_link(origin, session.id, *table_tokens(token, session.id, table.links)))
                          for table, session in tables)
            ends = None
            if found.ends_at is not None:
                zone = ZoneInfo(query["tz"])
                ends = (as_utc(found.ends_at).astimezone(zone).strftime("%H:%M")
                        + (" UTC" if query["tz"] == "UTC" else ""))
            local = origin if _loopback(urlsplit(origin).hostname or "") else None  # no phone opens it: on each card
            db.commit()  # the read ends: its connection goes back to the pool while the cards are drawn
            return reports.competition.TableCards(row.name, found.number, cards, ends, local), configured_font(), lang

        pdf = rendered(key, prepare, reports.competition.render_table_cards)
        response = download(pdf, "application/pdf", file_name(row.name, "pdf", _today(),
                                                              f"round {found.number} tables"))
        response.vary.add("Accept-Language")
        return response


def _round(rounds: list, planned: int, number: int | None):
    """Round ``number`` of the drawn ``rounds`` (the latest drawn when None) of a competition of ``planned``
    rounds: 404 past them, 409 when not drawn yet."""
    drawn = len(rounds)
    if number is None:
        if not drawn:
            abort(409, message=say("no_round_drawn"))
        return rounds[-1]
    if number > planned:
        raise Missing("no_round", number=number)
    if number > drawn:
        abort(409, message=say("round_not_drawn", number=number, drawn=drawn))
    return rounds[number - 1]


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


def results_sheet(snapshot: Snapshot, made: datetime.date) -> "reports.competition.ResultsSheet":
    """What the results sheet and the picture show of the competition as it is now (pure: drawn off the loop)."""
    names = {entrant.number: entrant.name for entrant in snapshot.entrants}
    settings = snapshot.settings
    return reports.competition.ResultsSheet(snapshot.row.name, snapshot.row.ruleset, settings.rounds,
                        sum(found.ended_at is not None for found in snapshot.rounds), settings.placement_points,
                        standings_view(snapshot.standings(), names), made)


def _standings_rendering(kind: str, query) -> tuple[bytes, datetime.date]:
    """The results sheet (``report.pdf``) or the picture (``standings.png``) of the competition now, rendered
    once per revision of it and of its tables (``api.http.rendered``); and its day."""
    db, row = get_db(), current_competition()
    lang, made = reader_language(query), _today()
    revisions = competition_store.table_revisions(db, row.id)

    def prepare():
        return current_snapshot(row, revisions), made, configured_font(), lang

    key = (kind, row.id, row.revision, tuple(sorted(revisions.items())), lang, made)
    return rendered(key, prepare, RENDERINGS[kind]), made


def _results_pdf(snapshot: Snapshot, made: datetime.date, font, lang: str) -> bytes:
    return reports.competition.render_results_sheet(results_sheet(snapshot, made), font, lang)


def _standings_png(snapshot: Snapshot, made: datetime.date, font, lang: str) -> bytes:
    return reports.card.render_card(reports.competition.standings_card(results_sheet(snapshot, made), lang), font)


RENDERINGS = {"report.pdf": _results_pdf, "standings.png": _standings_png}


@blp.route("/<competition_id:competition_id>/report.pdf")
class ReportPdf(MethodView):
    @blp.competition_token(in_query=True)
    @blp.arguments(LinkQuerySchema, location="query", unknown=ma.RAISE)
    @blp.doc(responses=file_response("application/pdf", "The results sheet: rank, points, net and every round "
                                                         "of every entrant, the tie-breaks stated"))
    @blp.alt_response(422, schema=JsonErrorSchema, description="an unknown lang")
    @blp.alt_response(429, schema=JsonErrorSchema, description=TOO_MANY)
    def get(self, query, competition_id):
        """The results sheet (A4 PDF): final once every round has ended, else the standings as they are."""
        pdf, made = _standings_rendering("report.pdf", query)
        response = download(pdf, "application/pdf", file_name(current_competition().name, "pdf", made, "results"))
        response.vary.add("Accept-Language")
        return response


@blp.route("/<competition_id:competition_id>/standings.png")
class StandingsPng(MethodView):
    @blp.competition_token(in_query=True)
    @card_route(blp, LinkQuerySchema, "The standings card", "an unknown lang", unknown=ma.RAISE)
    @blp.alt_response(429, schema=JsonErrorSchema, description=TOO_MANY)
    def get(self, query, competition_id):
        """The standings as a picture for chat apps: the leading ranks with points and net money."""
        png, made = _standings_rendering("standings.png", query)
        return picture(png, file_name(current_competition().name, "png", made, "standings"))
