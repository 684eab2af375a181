"""Marshmallow schemas of the competition endpoints (API.md: Competitions); ``ledger.competition.Settings``
and the service check the meaning, naming the field in the reader's language.
"""
import marshmallow as ma
from marshmallow import fields, validate

from api.http.fields import Bounded, BoundedList, Name, StakesSchema, StrictBoolean, strict_int
from api.http.language import request_language
from api.rules.schemas import HouseRulesField, OptionsField
from ledger.competition import EMPTY_SEATS, MAX_MINUTES, MAX_ROUNDS, MAX_SEED, SEATING, SEATS, UNTIL
from ledger.competition_store import NAME_LENGTH
from ledger.entries import RULESETS
from words import ENGLISH, word

WINDS_NOTE = "Seats by wind: 東 (E), 南 (S), 西 (W), 北 (N); the first deals first"
POINTS_NOTE = ("Points are exact: a whole number, or the nearest float of a fraction (tied seats share the "
               "average of the points of the places they cover, e.g. 7/3); `points_exact` always says it "
               "exactly, as `7/3` or `4`")


class RoundSettingsSchema(ma.Schema):
    until = fields.String(load_default="jiang", validate=validate.OneOf(UNTIL), metadata={
        "description": "`jiang`: a table's round ends with its first 將 (the deal has gone round every wind) "
                       "or when `minutes` are up, whichever is first; `time`: when `minutes` are up"})
    minutes = strict_int("The round's clock, from its start", {"minimum": 1, "maximum": MAX_MINUTES},
                         load_default=None, allow_none=True)
    grace = strict_int("Minutes after the organiser ends a round within which a table may still record "
                       "the hand it was playing (one hand)", {"minimum": 0, "maximum": MAX_MINUTES}, load_default=5)


class RankingField(fields.Field):
    """``{"placement_points": [4, 2, 1, 0]}`` or ``"net"``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "net":
            return None
        if isinstance(value, dict) and set(value) == {"placement_points"}:
            points = value["placement_points"]
            if isinstance(points, list) and len(points) == 4 and all(
                    type(point) is int and 0 <= point <= 1000 for point in points):
                return tuple(points)
        raise ma.ValidationError('Either "net" or {"placement_points": [four whole numbers from 0 to 1000]}.')

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None or value == "net":
            return "net"
        return value if isinstance(value, dict) else {"placement_points": list(value)}


RANKING_DOC = {"description": "Placement points per table, best first (ties by net money), or `net`: money alone",
               "oneOf": [{"type": "string", "enum": ["net"]},
                         {"type": "object", "required": ["placement_points"], "additionalProperties": False,
                          "properties": {"placement_points": {"type": "array", "minItems": 4, "maxItems": 4,
                                                              "items": {"type": "integer", "minimum": 0,
                                                                        "maximum": 1000}}}}]}


class CompetitionCreateSchema(ma.Schema):
    name = Name(required=True, max_length=NAME_LENGTH, metadata={"description": "e.g. Spring cup"})
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESETS))
    stakes = fields.Nested(StakesSchema, required=True)
    options = OptionsField()
    house_rules = HouseRulesField(load_default=None, allow_none=True)
    rounds = strict_int("How many rounds", {"minimum": 1, "maximum": MAX_ROUNDS}, required=True)
    round = fields.Nested(RoundSettingsSchema, load_default=lambda: RoundSettingsSchema().load({}))
    ranking = RankingField(load_default=(4, 2, 1, 0), metadata=RANKING_DOC)
    seating = fields.String(load_default="swiss", validate=validate.OneOf(SEATING), metadata={
        "description": "`swiss`: round 1 by the seed, later rounds by standings (the leaders together); "
                       "`random`: every round by its seed; `rating` (a group's competition): round 1 by the group's "
                       "ratings in snake order, so the strongest are spread over the tables, later rounds as `swiss`. "
                       "All keep pairs apart who have met and seat winds in turn"})
    empty_seats = fields.String(load_default="sit_out", validate=validate.OneOf(EMPTY_SEATS), metadata={
        "description": "When the players are not a multiple of four: `sit_out` (those who sat out least, the "
                       "lowest placed first) or `substitutes` (registered substitutes fill the seats; their "
                       "results count for nobody)"})
    check_in = StrictBoolean(load_default=False, metadata={
        "description": "Check-in required: a draw seats only the entrants checked in "
                       "(`POST …/entrants/<entrant>/check_in`); the others sit that round out (`absent`), still "
                       "entered"})
    group = fields.String(metadata={"description": "A group's id: entrants are its members, every table an evening "
                                                   "of the group (send a member or admin token of the group as "
                                                   "the bearer token)"})


class EntrantsPostSchema(ma.Schema):
    names = BoundedList(Name(), limit_key="MAX_ENTRANTS", required=True, validate=validate.Length(min=1), metadata={
        "description": "Names to enter (in a group's competition: members, by id or current name); each once"})
    substitute = StrictBoolean(load_default=False, metadata={
        "description": "Enter them as substitutes (替補), who fill empty seats and are not ranked"})


class SeedField(fields.Field):
    """A seed as a string of decimal digits (``"7571865187093097242"``), the contract's form: a browser's JSON
    number loses digits past 2**53, so the page never sends one; a JSON whole number is still read as one."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and value.isascii() and value.isdigit() and int(value) <= MAX_SEED:
            return int(value)
        if type(value) is int and 0 <= value <= MAX_SEED:
            return value
        raise ma.ValidationError(word(request_language(ENGLISH), "api.seed", maximum=MAX_SEED))

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else str(value)


SEED_DOC = {"description": "The seed of a random order (round 1, or `random` seating), as a string of decimal "
                           "digits (a whole JSON number is read too)",
            "oneOf": [{"type": "string", "pattern": "^[0-9]+$", "maxLength": len(str(MAX_SEED))},
                      {"type": "integer", "minimum": 0, "maximum": MAX_SEED}]}


class DrawSchema(ma.Schema):
    cut = Bounded(minimum=SEATS, limit_key="MAX_ENTRANTS", strict=True, load_default=None, allow_none=True,
                  metadata={"description": "Only the top `cut` of the standings play this round (at least 4)"})
    seed = SeedField(load_default=None, allow_none=True,
                     metadata={**SEED_DOC, "description": SEED_DOC["description"] + "; drawn for you if absent"})


class EndSchema(ma.Schema):
    grace = strict_int("Minutes of grace for the hand in play (default: the competition's `round.grace`)",
                       {"minimum": 0, "maximum": MAX_MINUTES}, load_default=None, allow_none=True,
                       validate=validate.Range(min=0, max=MAX_MINUTES))


# -- answers -------------------------------------------------------------------


class EntrantSchema(ma.Schema):
    entrant = fields.Integer(required=True, metadata={"description": "The entrant's number (registration order)"})
    name = fields.String(required=True)
    substitute = fields.Boolean(required=True)
    first_round = fields.Integer(required=True, metadata={"description": "The first round they are drawn in"})
    withdrawn_from = fields.Integer(allow_none=True, metadata={
        "description": "The first round they are no longer drawn in (withdrawn), or null"})
    member = fields.String(allow_none=True, metadata={"description": "Their group member's id, if any"})
    checked_in = fields.Boolean(required=True, metadata={
        "description": "Checked in (`POST …/check_in`, undone by `DELETE`); with `check_in` required, only those "
                       "checked in are drawn"})


class EntrantsSchema(ma.Schema):
    entrants = fields.List(fields.Nested(EntrantSchema), required=True)


class TableSchema(ma.Schema):
    table = fields.Integer(required=True)
    session = fields.String(required=True, metadata={"description": "The table's evening: `/api/sessions/<id>`"})
    token = fields.String(metadata={"description": "The evening's write token (organiser only)"})
    read_token = fields.String(metadata={"description": "The evening's read-only token"})
    seats = fields.List(fields.String(), required=True, metadata={"description": WINDS_NOTE})
    hands = fields.Integer(metadata={"description": "Hands recorded so far"})
    jiang_done = fields.Boolean(metadata={"description": "The table's first 將 is complete"})
    closed = fields.Boolean(metadata={"description": "The table's evening is closed (its round ended)"})
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={"description": "Net money"})


class DrawnSchema(ma.Schema):
    number = fields.Integer(required=True)
    seed = fields.String(required=True, metadata={
        "description": "The seed of the round's random order: decimal digits, as a string (a JSON number would "
                       "lose digits in a browser)", "pattern": "^[0-9]+$"})
    tables = fields.List(fields.Nested(TableSchema), required=True)
    sitting_out = fields.List(fields.String(), required=True, metadata={"description": "Sitting this round out"})
    cut = fields.List(fields.String(), metadata={"description": "Left out of this round by a cut"})
    absent = fields.List(fields.String(), metadata={"description": "Not checked in when the round was drawn "
                                                                  "(check-in required): they sat it out"})
    started_at = fields.String(allow_none=True, metadata={"description": "When its clock started"})
    ends_at = fields.String(allow_none=True, metadata={"description": "When its time is up"})
    ended_at = fields.String(allow_none=True, metadata={"description": "When the organiser ended it"})
    grace_until = fields.String(allow_none=True, metadata={"description": "Until when the hand in play may be "
                                                                          "recorded"})
    seconds_left = fields.Integer(allow_none=True, metadata={"description": "Of its clock, while it runs"})


class CompetitionSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    stakes = fields.Dict(required=True)
    options = fields.Dict(required=True)
    house_rules = fields.Dict(allow_none=True)
    rounds = fields.Integer(required=True)
    round = fields.Nested(RoundSettingsSchema, required=True)
    ranking = RankingField(required=True, metadata=RANKING_DOC)
    seating = fields.String(required=True)
    empty_seats = fields.String(required=True)
    check_in = fields.Boolean(required=True, metadata={"description": "Check-in required for the draw"})
    group = fields.String(allow_none=True)
    access = fields.String(required=True, metadata={"description": "`organizer` or `read`: what the token may do"})
    revision = fields.Integer(required=True, metadata={"description": "Grows with every change of the competition"})
    entrants = fields.List(fields.Nested(EntrantSchema), required=True)
    drawn = fields.List(fields.Nested(DrawnSchema), required=True, metadata={"description": "The rounds drawn"})
    current_round = fields.Integer(allow_none=True, metadata={
        "description": "The round drawn and not yet ended (its clock and tables are in `drawn`), or null"})


class CompetitionCreatedSchema(CompetitionSchema):
    organizer_token = fields.String(required=True, metadata={"description": "Opens everything (shown once)"})
    read_token = fields.String(required=True, metadata={"description": "Reads everything (shown once)"})


class LineSchema(ma.Schema):
    round = fields.Integer(required=True)
    table = fields.Integer(allow_none=True)
    wind = fields.String(allow_none=True)
    opponents = fields.List(fields.String())
    net = fields.Integer()
    place = fields.String(allow_none=True, metadata={"description": "1 to 4; tied seats share, e.g. `5/2`"})
    points = fields.Raw(metadata={"description": POINTS_NOTE})
    points_exact = fields.String()
    played = fields.Boolean(metadata={"description": "The table has a hand recorded (until then it counts nothing)"})
    sat_out = fields.Boolean()


class StandingSchema(ma.Schema):
    entrant = fields.Integer(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True, metadata={"description": "1 the best; equal points and net share a rank"})
    points = fields.Raw(required=True, metadata={"description": POINTS_NOTE})
    points_exact = fields.String(required=True)
    net = fields.Integer(required=True)
    withdrawn = fields.Boolean(required=True)
    rounds = fields.List(fields.Nested(LineSchema), required=True)


class CompetitionAuditSchema(ma.Schema):
    """One line of a competition's audit trail: a change of the competition, or one made at a table."""

    at = fields.String(required=True, metadata={"description": "When (UTC, ISO 8601)"})
    who = fields.String(required=True, metadata={"description": (
        "Who made the change: `organizer` (the organiser's token; every change of the competition itself) or "
        "`table N of round R` (that table's own token)")})
    client = fields.String(required=True, metadata={
        "description": "The X-Client label the request sent (its first 64 characters), or unknown"})
    action = fields.String(required=True, metadata={"description": (
        "The competition's: create, entrants, check_in, check_out, withdraw, draw, start, end, reopen_table; a table's (as "
        "GET /api/sessions/<id>/audit): void, correct, restore, hand (recorded after the round ended), reopen, "
        "close (listed once reopened), house_rules, house_rules_from, house_rules_replaced")})
    round = fields.Integer(required=True, allow_none=True)
    table = fields.Integer(required=True, allow_none=True)
    session = fields.String(required=True, allow_none=True, metadata={"description": "The table's evening"})
    number = fields.Integer(required=True, allow_none=True, metadata={"description": "The hand, at a table"})
    before = fields.Dict(required=True, allow_none=True)
    after = fields.Dict(required=True, allow_none=True)
    after_round_end = fields.Boolean(required=True, metadata={
        "description": "Changed at a table after its round ended: a correction the standings moved by"})
