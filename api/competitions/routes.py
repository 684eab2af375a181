"""Competitions (比賽): entrants, the draw, the round clock, standings (API.md: Competitions).

The organiser's token changes; either token reads. No token is a 401, a token that is neither of the
competition's a 403, and the read-only token on a change a 403, each in the reader's language.
"""
import datetime

from flask import current_app
from flask.views import MethodView

from api.competitions import service
from api.competitions.access import ORGANIZER, CompetitionBlueprint, current_competition
from api.competitions.schemas import (CompetitionAuditSchema, CompetitionCreatedSchema, CompetitionCreateSchema, CompetitionSchema,
                                      DrawnSchema, DrawSchema, EndSchema, EntrantSchema, EntrantsPostSchema,
                                      EntrantsSchema, StandingSchema)
from api.competitions.views import audit_view, competition_view, entrant_view, round_view, standings_view
from api.http.auth import CLIENT_HEADER, TOKEN_QUERY, Caller, bearer_token, caller, client_label, current_access
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.files import download, file_name, file_response
from api.http.language import request_language
from api.http.limits import limits
from ledger import competition_store
import reports
from words import ENGLISH

blp = CompetitionBlueprint("competitions", __name__, url_prefix="/api/competitions",
                           description="Competitions: entrants, the draw, the round clock, standings")
competition_token = blp.competition_token
OPEN = "A round is open (drawn and not ended), every round is drawn, or the round has ended or started already"
TIE_BREAKS = ("Ranked by points (placement points per table: tied seats share the points of the places they "
              "cover), then net money; equal in both share a rank. With ranking `net`: by net money alone. A "
              "table counts once it has a hand; substitutes are not ranked; sitting out scores nothing.")


def _view(competition_id: str) -> dict:
    db = get_db()
    row = competition_store.find_competition(db, competition_id)
    return competition_view(service.Snapshot(db, row), current_access(), caller().token)


def as_json(answer):
    """The answer written as JSON at once, as its schema documents it: the schema's dump was most of the
    standings' time (``benchmarks/competition.py --api``); tests/api/competitions check the fields."""
    return current_app.json.response(answer)


@blp.route("")
class Competitions(MethodView):
    @blp.arguments(CompetitionCreateSchema())
    @blp.response(201, CompetitionCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Bad settings, rule set, stakes or options")
    @blp.doc(parameters=[CLIENT_HEADER])
    def post(self, body):
        """Create a competition; the answer holds its organiser and read-only tokens (shown only this once)."""
        token = bearer_token() if "group" in body else ""  # a group's: its member or admin token
        db = get_db()
        row, tokens = service.create_competition(db, body, Caller(token, client_label()))
        return {**competition_view(service.Snapshot(db, row), ORGANIZER, tokens["organizer_token"]), **tokens}


@blp.route("/<competition_id:competition_id>")
class Competition(MethodView):
    @competition_token()
    @blp.response(200, CompetitionSchema)
    def get(self, competition_id):
        """The competition: settings, entrants, each round drawn with its clock and each table's progress."""
        return as_json(_view(competition_id))


@blp.route("/<competition_id:competition_id>/entrants")
class Entrants(MethodView):
    @competition_token(ORGANIZER)
    @blp.arguments(EntrantsPostSchema())
    @blp.response(201, EntrantsSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A name entered twice, or too many entrants")
    def post(self, body, competition_id):
        """Enter names (in a group's competition: members); entered after a draw, they play from the next round."""
        added = service.add_entrants(get_db(), competition_id, caller(), body["names"], body["substitute"], limits())
        return {"entrants": [entrant_view(entrant) for entrant in added]}


@blp.route("/<competition_id:competition_id>/entrants/<entrant>")
class Entrant(MethodView):
    @competition_token(ORGANIZER)
    @blp.response(200, EntrantSchema)
    def delete(self, competition_id, entrant):
        """Withdraw an entrant (number or name) from the rounds not yet drawn; what they played stays."""
        return entrant_view(service.withdraw(get_db(), competition_id, caller(), entrant))


@blp.route("/<competition_id:competition_id>/entrants/<entrant>/check_in")
class CheckIn(MethodView):
    @competition_token(ORGANIZER)
    @blp.response(200, EntrantSchema)
    @blp.alt_response(409, schema=JsonErrorSchema, description="The entrant withdrew")
    def post(self, competition_id, entrant):
        """Check an entrant (number or name) in: with check-in required, a draw seats only those checked in."""
        return entrant_view(service.check_in(get_db(), competition_id, caller(), entrant, True))

    @competition_token(ORGANIZER)
    @blp.response(200, EntrantSchema)
    def delete(self, competition_id, entrant):
        """Undo an entrant's check-in (they are still entered; a draw with check-in required leaves them out)."""
        return entrant_view(service.check_in(get_db(), competition_id, caller(), entrant, False))


@blp.route("/<competition_id:competition_id>/rounds")
class Rounds(MethodView):
    @competition_token(ORGANIZER)
    @blp.arguments(DrawSchema())
    @blp.response(201, DrawnSchema)
    @blp.alt_response(409, schema=JsonErrorSchema, description=OPEN)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Too few to play, too few substitutes, a cut below 4")
    def post(self, body, competition_id):
        """Draw the next round: round 1 by a seed, later ones by standings (Swiss) keeping apart those who have
        met and seating winds in turn; each table an evening with its own links."""
        token = caller().token
        drawn, tables = service.draw_round(get_db(), competition_id, caller(), body["cut"], body["seed"], limits(),
                                           request_language(ENGLISH))
        names = {entrant.number: entrant.name
                 for entrant in competition_store.list_entrants(get_db(), current_competition().id)}
        return round_view(drawn, tables, names, token)


def _round_answer(found) -> dict:
    """The round as ``GET …/<id>`` shows it to the organiser, read alone: the whole competition's view of 1,000
    entrants was read and built for it, on the loop, after every start and end."""
    db = get_db()
    names = {entrant.number: entrant.name for entrant in competition_store.list_entrants(db, found.competition_id)}
    return round_view(found, competition_store.tables_with_sessions(db, found.competition_id, found.number), names,
                      caller().token)


@blp.route("/<competition_id:competition_id>/rounds/<int:number>/start")
class Start(MethodView):
    @competition_token(ORGANIZER)
    @blp.response(200, DrawnSchema)
    @blp.alt_response(409, schema=JsonErrorSchema, description=OPEN)
    def post(self, competition_id, number):
        """Start the round's clock (its minutes, if the competition has them, count from now)."""
        return _round_answer(service.start_round(get_db(), competition_id, caller(), number))


@blp.route("/<competition_id:competition_id>/rounds/<int:number>/end")
class End(MethodView):
    @competition_token(ORGANIZER)
    @blp.arguments(EndSchema())
    @blp.response(200, DrawnSchema)
    @blp.alt_response(409, schema=JsonErrorSchema, description=OPEN)
    def post(self, body, competition_id, number):
        """End the round: every table's evening is closed; a table may still record the hand it was playing
        within the grace (minutes)."""
        return _round_answer(service.end_round(get_db(), competition_id, caller(), number, body["grace"]))


@blp.route("/<competition_id:competition_id>/tables/<session_id:session_id>/reopen")
class ReopenTable(MethodView):
    @competition_token(ORGANIZER)
    @blp.response(200, CompetitionSchema)
    def post(self, competition_id, session_id):
        """Reopen a table after its round ended, for a correction (its own links cannot); audited. Close it
        again with its link (``POST /api/sessions/<id>/close``)."""
        service.reopen_table(get_db(), competition_id, caller(), session_id)
        return _view(competition_id)


@blp.route("/<competition_id:competition_id>/audit")
class Audit(MethodView):
    @competition_token(ORGANIZER)
    @blp.response(200, CompetitionAuditSchema(many=True))
    def get(self, competition_id):
        """The audit trail (the organiser's): who changed the competition and its tables, when, before and after;
        the corrections made at a table after its round ended are marked."""
        db = get_db()
        row = current_competition()
        return audit_view(competition_store.audits(db, row.id), competition_store.table_audits(db, row.id),
                          competition_store.list_rounds(db, row.id))


@blp.route("/<competition_id:competition_id>/standings")
class Standings(MethodView):
    @competition_token()
    @blp.response(200, StandingSchema(many=True), description=TIE_BREAKS)
    def get(self, competition_id):
        """The entrants ranked (best first), each with every round: table, wind, opponents, net, place, points."""
        db = get_db()
        snapshot = service.Snapshot(db, current_competition())
        names = {entrant.number: entrant.name for entrant in snapshot.entrants}
        return as_json(standings_view(snapshot.standings(), names))


@blp.route("/<competition_id:competition_id>/standings.csv", parameters=[TOKEN_QUERY])
class StandingsCsv(MethodView):
    @competition_token(in_query=True)
    @blp.doc(responses=file_response("text/csv", "The standings, one row per entrant in rank order, then each "
                                                 "round's table, wind, opponents, net, place, points and status"))
    def get(self, competition_id):
        """The standings as CSV (UTF-8 with BOM): headers are the API's field names."""
        db = get_db()
        snapshot = service.Snapshot(db, current_competition())
        names = {entrant.number: entrant.name for entrant in snapshot.entrants}
        day = datetime.datetime.now(datetime.timezone.utc).date()
        rows = standings_view(snapshot.standings(), names)
        return download(reports.competition.standings_csv(rows, len(snapshot.rounds)), "text/csv; charset=utf-8",
                        file_name(snapshot.row.name, "csv", day, "standings"))
