"""Marshmallow schemas of an evening's endpoints (API.md: Sessions, Hands, Seats, Settlement, backups).

Request schemas check the *shape*; the ledger checks the meaning and names the offending field.
Timestamps are ISO 8601 in UTC. The backup document (``BackupSchema``) holds what was entered, never
what was derived, plus the ``state`` and ``totals`` its entries must replay to, as a check.
"""
import copy

import marshmallow as ma
from marshmallow import fields, validate

from api.http.fields import TIMESTAMP, Bounded, Name, StakesSchema, StrictBoolean, amounts, strict_int, timestamp, \
    valid_time_zone
from api.http.files import LanguageQuerySchema, RoundingQuerySchema
from api.rules.schemas import HandSchema, HouseRulesField, OptionsField, ScoreSchema, WinSchema
from ledger.entries import DRAW_REASONS, HAND, RULES, RULESETS, SEAT
from ledger.scoring import WIN_BY
from ledger.store import CLIENT_LENGTH, KEY_LENGTH
from ledger.table import WINDS

NAME_LENGTH = 200  # the evening's name (players' names: MAX_NAME_LENGTH, api.http.limits)
PLAYERS = 4
MAX_WINNERS = 3  # one discard pays at most the three other players
MAX_NUMBER = 2**31 - 1  # hand numbers live in a 32-bit INTEGER column; a larger one is no hand (404)
FORMAT = "taizhang-session"  # the backup document's
VERSION = 1
#: Audit actions about the house rules (no hand number; house rules before and after, not hand bodies).
HOUSE_RULES_ACTIONS = ("house_rules", "house_rules_from", "house_rules_replaced")


# -- requests ------------------------------------------------------------------


class SessionCreateSchema(ma.Schema):
    name = Name(required=True, max_length=NAME_LENGTH,
                metadata={"description": "A name for the evening, e.g. Friday at Amy's"})
    ruleset = fields.String(validate=validate.OneOf(RULESETS), metadata={
        "description": "Required, unless the evening is a group's whose defaults give it"})
    players = fields.List(Name(), required=True, metadata={
        "minItems": PLAYERS, "maxItems": PLAYERS, "uniqueItems": True,
        "description": "Four different names in turn order; the first deals first (東). In a group's evening: "
                       "four members (ids or current names)"})
    stakes = fields.Nested(StakesSchema, metadata={
        "description": "Required, unless the evening is a group's whose defaults give it"})
    options = OptionsField()
    house_rules = HouseRulesField(load_default=None, allow_none=True)
    group = fields.String(metadata={"description": "A group's id: the evening is the group's (send a member or "
                                                   "admin token of the group as the bearer token)"})

    @ma.validates_schema(skip_on_field_errors=False)
    def ruleset_and_stakes(self, data, **kwargs):
        """Required, except in a group's evening (whose defaults may give them: ``api.groups.service``)."""
        if "group" not in data:
            missing = {key: ["Missing data for required field."] for key in ("ruleset", "stakes") if key not in data}
            if missing:
                raise ma.ValidationError(missing)


class WinnerSchema(ma.Schema):
    """A winner: quick entry (`tai` or `points`) or full entry (`hand` and `win`)."""

    player = Name(required=True)
    tai = strict_int("Quick entry (taiwan, taiwan_zz): the hand's 台 before the dealer extra")
    points = strict_int("Quick entry (shanghai): one share in 底分 before 荒番, as /api/score gives it")
    event = fields.String(allow_none=True, metadata={
        "description": "Quick entry: eight_flowers (taiwan_zz, shanghai) or seven_flowers_rob (taiwan_zz)"})
    hand = fields.Nested(HandSchema, metadata={
        "description": "Full entry: the hand as for /api/score; scored at the table's winds and dealer"})
    win = fields.Nested(WinSchema, metadata={"description": "Full entry: how the hand was won"})


class HandBodySchema(ma.Schema):
    """One finished hand: winners with `by` (and `discarder`), or `draw: true`; what depends on the table is the
    ledger's to check, its 422 naming the field."""

    winners = fields.List(fields.Nested(WinnerSchema), validate=validate.Length(max=MAX_WINNERS))
    by = fields.String(allow_none=True, validate=validate.OneOf(
        WIN_BY, error="by must be one of {choices}, not {input!r}"), metadata={
        "description": "discard (放槍), self_draw (自摸) or robbing_kong (搶槓)"})
    discarder = Name(allow_none=True, metadata={
        "description": "Who discarded; for robbing_kong the robbed player; for 七搶一 the eighth flower's holder"})
    draw = StrictBoolean(metadata={"description": "true for a draw (流局): no winners"})
    reason = fields.String(validate=validate.OneOf(
        DRAW_REASONS, error="unknown draw reason {input!r}; use one of {choices}"), metadata={
        "description": "Why the draw; only with draw: true (else a 422)"})
    dice = fields.List(strict_int("One die, 1–6"), validate=validate.Length(
        equal=2, error="dice must be two numbers, e.g. [1, 4]"), metadata={
        "description": "shanghai: the two dice thrown before the hand (荒番)"})
    three_mouth = fields.List(fields.List(Name(), validate=validate.Length(equal=2)), metadata={
        "description": "shanghai: 三口 pairs of two different seated players, e.g. [[\"Amy\", \"Ben\"]]"})
    discarder_ready = StrictBoolean(metadata={"description": "shanghai: the discarder was ready (聽牌)"})
    false_win = Name(metadata={
        "description": "詐胡: the player who claimed a win falsely; alone in the body. They pay each other "
                       "player the house rules' penalty, and the hand is played again (same dealer and winds)"})

    @ma.post_load(pass_original=True)
    def as_sent_with_normal_names(self, hand, sent, **kwargs):
        """The hand as sent, its names the normalised ones (a new document: the request's stays as it came).

        What is recorded and compared is the body as sent, without the defaults the nested schemas fill in,
        so ``"Amy "`` or a decomposed accent names the seated player, in the recorded body too.
        """
        body = copy.deepcopy(sent)
        for winner, sent_winner in zip(hand.get("winners", ()), body.get("winners", ())):
            sent_winner["player"] = winner["player"]
        for key in ("discarder", "false_win"):
            if hand.get(key) is not None:
                body[key] = hand[key]
        if "three_mouth" in hand:
            body["three_mouth"] = [list(pair) for pair in hand["three_mouth"]]
        return body


class SeatChangeSchema(ma.Schema):
    seat = strict_int("0–3, turn order", required=True, metadata={"minimum": 0, "maximum": 3})
    player = Name(required=True, metadata={"description": "Who sits there from the next hand on"})

    @ma.post_load(pass_original=True)
    def as_sent_with_normal_name(self, change, sent, **kwargs):
        """The seat change as sent, its name the normalised one (a new document)."""
        return {**sent, "player": change["player"]}


# -- responses -----------------------------------------------------------------


class StateSchema(ma.Schema):
    """The table between two hands."""

    dealer = fields.String(required=True, metadata={"description": "莊家"})
    streak = fields.Integer(required=True, metadata={"description": "連莊: hands the deal was kept, 0 first"})
    round_wind = fields.String(required=True, validate=validate.OneOf(WINDS), metadata={"description": "圈風"})
    hand_wind = fields.String(required=True, validate=validate.OneOf(WINDS), metadata={"description": "局"})
    hands_played = fields.Integer(required=True, metadata={"description": "Hands that count (not voided)"})
    wasteland = fields.Integer(required=True, metadata={"description": "荒番 counter H (shanghai; else 0)"})
    seats = fields.List(fields.String(), required=True, metadata={"description": "Who sits in seats 0–3"})
    jiang = fields.Integer(required=True, metadata={"description": "將: 1 until the round wind passes 北"})


class SessionStateSchema(StateSchema):
    """The table now, and whether the evening is closed."""

    closed = fields.Boolean(required=True, metadata={"description": "Closed (結束): every change is refused (409)"})
    closed_at = fields.String(required=True, allow_none=True, metadata=TIMESTAMP)


class SeatChangeOutSchema(ma.Schema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    replaces = fields.String(required=True, metadata={"description": "Who sat there before"})
    hands_played = fields.Integer(required=True, metadata={
        "description": "Hands played (that count) before the change took effect"})
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state right after"})
    client = fields.String(required=True, metadata={"description": "Who entered it (X-Client header)"})
    created_at = fields.String(required=True, metadata=TIMESTAMP)


class HouseRulesChangeSchema(ma.Schema):
    """A change of the house rules from a hand on (``POST …/house_rules``)."""

    kind = fields.String(required=True, validate=validate.Equal("house_rules"))
    from_hand = fields.Integer(required=True, metadata={
        "description": "The first hand played under these rules (the hands before keep theirs)"})
    house_rules = fields.Dict(keys=fields.String(), required=True, metadata={"description": "The rules, as checked"})
    before = fields.Dict(keys=fields.String(), required=True, metadata={"description": "The rules they replaced"})
    void = fields.Boolean(required=True, metadata={
        "description": "Replaced by a correction of the whole evening (PUT): kept, changes nothing"})
    client = fields.String(required=True, metadata={"description": "Who entered it (X-Client header)"})
    created_at = fields.String(required=True, metadata=TIMESTAMP)


class TableRoundSchema(ma.Schema):
    """What a competition's table knows of its round (``api.sessions.views.table_round_view``)."""

    competition = fields.String(required=True, metadata={"description": "The competition's id"})
    name = fields.String(required=True, metadata={"description": "The competition's name"})
    round = fields.Integer(required=True, metadata={"description": "The round this table belongs to"})
    rounds = fields.Integer(required=True, metadata={"description": "The competition's number of rounds"})
    table = fields.Integer(required=True, metadata={"description": "The table's number in its round"})
    until = fields.String(required=True, metadata={"description": "`jiang` (first 將, or the clock) or `time`"})
    minutes = fields.Integer(allow_none=True, metadata={"description": "The round's clock"})
    started_at = fields.String(allow_none=True, metadata={"description": "When the organiser started the clock"})
    ends_at = fields.String(allow_none=True, metadata={"description": "When the round's time is up"})
    seconds_left = fields.Integer(allow_none=True, metadata={
        "description": "Of the clock, while it runs (started, not ended); count it down from the answer's arrival"})
    time_up = fields.Boolean(required=True, metadata={"description": "The round's time is up"})
    jiang_done = fields.Boolean(required=True, metadata={"description": "The table's first 將 is complete"})
    ended_at = fields.String(allow_none=True, metadata={
        "description": "When the organiser ended the round: recording has stopped (the evening is closed)"})
    grace_until = fields.String(allow_none=True, metadata={
        "description": "Until when the hand in play may still be recorded (one hand) after the round ended"})
    grace_open = fields.Boolean(required=True, metadata={
        "description": "The round ended and the hand in play may still be recorded now (within the grace, none "
                       "recorded since the end)"})


class SessionSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "The first four, in turn order"})
    stakes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    options = fields.Dict(keys=fields.String(), required=True, metadata={"description": "With defaults filled in"})
    house_rules = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The house rules in force now, the next hand's, as checked ({} for none)"})
    opening_house_rules = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The house rules the evening started with (the same as house_rules unless changed "
                       "from a hand on)"})
    house_rules_changes = fields.List(fields.Nested(HouseRulesChangeSchema), required=True, metadata={
        "description": "Every change of the house rules from a hand on, in order (replaced ones void)"})
    state = fields.Nested(SessionStateSchema, required=True)
    totals = amounts("Everyone who played, in order of first appearance; sums to zero")
    seat_changes = fields.List(fields.Nested(SeatChangeOutSchema), required=True)
    next_hand = fields.Integer(required=True, metadata={
        "description": "The number the next hand gets: hands are numbered 1, 2, 3, … and a voided hand keeps its own"})
    created_at = fields.String(required=True, metadata=TIMESTAMP)
    revision = fields.Integer(required=True, metadata={
        "description": "Grows by one with every change (also the ETag); send it back as If-Match"})
    access = fields.String(required=True, validate=validate.OneOf(("write", "read", "organizer")), metadata={
        "description": "What the request's token may do: `write` (everything; at a competition's table, its "
                       "hands only), `read` (read-only link) or `organizer` (a competition's table opened with "
                       "its organiser's token: everything)"})
    group = fields.String(allow_none=True, metadata={"description": "The group the evening belongs to, if any"})
    competition = fields.Nested(TableRoundSchema, allow_none=True, metadata={
        "description": "`GET` only: the competition's round this evening is a table of, with its clock; null "
                       "for an evening of no competition. A `round` event on the evening's stream says the "
                       "organiser started the round's clock"})


class HouseRulesCorrectedSchema(SessionSchema):
    """The session after a correction of the whole evening's house rules (``PUT``)."""

    replaced = fields.List(fields.Nested(HouseRulesChangeSchema), required=True, metadata={
        "description": "The changes made from a hand on that this correction replaced (now void)"})


class TokensSchema(ma.Schema):
    token = fields.String(required=True, metadata={
        "description": "Shown once: send it as Authorization: Bearer <token> on every session request"})
    read_token = fields.String(required=True, metadata={
        "description": "Shown once: the read-only link's token; it reads everything and changes nothing"})


class SessionCreatedSchema(SessionSchema, TokensSchema):
    """A new session, with its two tokens."""


class WinnerScoreSchema(ma.Schema):
    player = fields.String(required=True)
    tai = fields.Integer(metadata={"description": "The 台 paid on (taiwan, taiwan_zz)"})
    points = fields.Integer(metadata={"description": "One share in 底分 before 荒番 (shanghai)"})
    score = fields.Nested(ScoreSchema, allow_none=True, required=True,
                          metadata={"description": "The engine's breakdown (full entry); null for quick entry"})


class PaymentLineSchema(ma.Schema):
    """One payment of a hand and why it is owed (``ledger.explain``): what History and the PDF show."""

    payer = fields.String(required=True)
    payee = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "What the payer pays the payee, > 0"})
    reasons = fields.List(fields.Dict(), required=True, metadata={"description": (
        "Language-neutral reasons, each a `code` with its numbers: why this player pays (self_draw, discard, "
        "robbing_kong, eight_flowers, seven_flowers_rob, three_mouth_self_draw, three_mouth_discard, "
        "three_mouth_ready, three_mouth_not_ready), then Taiwanese base / tai (with `patterns` for a "
        "tile-entered hand, `capped_from` under max_tai) / dealer_extra, each with its `amount`, or "
        "shanghai share (points × 底分) / wasteland (×2, counter and dice) / shares")})


class HandOutSchema(ma.Schema):
    """A recorded hand: as entered, and what it did. A voided hand pays nothing."""

    number = fields.Integer(required=True, metadata={"description": "1, 2, 3, … in recording order"})
    void = fields.Boolean(required=True, metadata={"description": "作廢: kept for the record, counts for nothing"})
    body = fields.Dict(required=True, metadata={"description": "The hand exactly as entered"})
    dealer = fields.String(required=True, metadata={"description": "Who dealt this hand"})
    streak = fields.Integer(required=True)
    round_wind = fields.String(required=True)
    hand_wind = fields.String(required=True)
    jiang = fields.Integer(required=True)
    wasteland = fields.Integer(required=True, metadata={"description": "荒番 H during the hand (shanghai)"})
    payments = amounts("The four seated players; sums to zero; empty for a voided hand")
    scores = fields.List(fields.Nested(WinnerScoreSchema), required=True)
    lines = fields.List(fields.Nested(PaymentLineSchema), required=True, metadata={
        "description": "Every payment with its reasons, per winner then payer in seat order; sums to payments"})
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state after this hand"})
    client = fields.String(required=True, metadata={"description": "Who entered it (X-Client header)"})
    created_at = fields.String(required=True, metadata=TIMESTAMP)
    updated_at = fields.String(required=True, metadata=TIMESTAMP)


class RecordedHandSchema(HandOutSchema):
    """The answer to recording a hand: the hand, and what a table view needs to paint the evening after it."""

    revision = fields.Integer(required=True, metadata={
        "description": "The evening's revision after this hand (its ETag): a page that showed revision − 1 shows "
                       "the evening now with `state` and `totals`, without reading it again"})
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True, metadata={
        "description": "Everyone's total after this hand, as GET /api/sessions/<id> gives it"})


class AuditSchema(ma.Schema):
    """One void (作廢), correction (更正) or restore of a hand, or closing or reopening the evening."""

    number = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The hand; null for close, reopen and a change of the house rules"})
    action = fields.String(required=True, validate=validate.OneOf(
        ("void", "correct", "restore", "close", "reopen", "house_rules", "house_rules_from",
         "house_rules_replaced", "hand")), metadata={"description": (
            "house_rules: a correction of the whole evening's house rules; house_rules_from: a change from a "
            "hand on; house_rules_replaced: such a change a correction replaced; hand: a hand recorded at a "
            "competition's table after its round ended")})
    who = fields.String(required=True, metadata={"description": "The X-Client label, or unknown"})
    at = fields.String(required=True, metadata=TIMESTAMP)
    before = fields.Dict(required=True, allow_none=True, metadata={
        "description": "The hand's body (or the house rules) before; null for close, reopen"})
    after = fields.Dict(required=True, allow_none=True, metadata={"description": "After; null for a void"})


IDEMPOTENCY_HEADER = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "maxLength": KEY_LENGTH},
    "description": "A retried request with the same key records once and returns the first response; "
                   "the same key with a different body is a 422.",
}


# -- the backup document ---------------------------------------------------------


class BackupEntrySchema(ma.Schema):
    """One hand or seat change, as entered."""

    kind = fields.String(required=True, validate=validate.OneOf((HAND, SEAT, RULES)), metadata={
        "description": "`hand`, `seat` (a seat change, 替補) or `rules` (the house rules from the next hand on)"})
    number = fields.Integer(strict=True, allow_none=True, load_default=None, metadata={
        "description": "A hand's number: 1, 2, 3, … in order; null for a seat change"})
    body = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The request body as it stands now (after corrections)"})
    void = fields.Boolean(load_default=False, metadata={"description": "作廢: kept, counts for nothing"})
    client = Name(load_default="unknown", max_length=CLIENT_LENGTH,
                  metadata={"description": "Who entered it (X-Client label)"})
    created_at = timestamp("When it was entered", required=True)
    updated_at = timestamp("When it last changed", required=True)

    @ma.post_load
    def body_as_its_request(self, entry, **kwargs):
        """The body as its route's schema loads it (names normalised), refused as the route refuses it; a change
        of the house rules is the ledger's to check (its keys depend on the rule set)."""
        if entry["kind"] != RULES:
            entry["body"] = loaded_body(REQUEST_SCHEMAS[entry["kind"]], entry["body"], "body")
        return entry


class BackupAuditSchema(AuditSchema):
    """One void, correction or restore, as ``GET /audit`` lists it."""

    at = timestamp("When", required=True)
    who = Name(required=True, max_length=CLIENT_LENGTH, metadata={"description": "The X-Client label, or unknown"})

    @ma.post_load
    def bodies_as_their_request(self, change, **kwargs):
        """A hand's change holds hand bodies, loaded as the hand route loads them: one before (but a hand
        recorded at a competition's table after its round, which is new), and one after (but a void)."""
        if change["action"] in HOUSE_RULES_ACTIONS and change["number"] is None:
            return change
        for side in ("before", "after"):
            if change[side] is not None or (side == "before" and change["action"] != HAND):
                change[side] = loaded_body(REQUEST_SCHEMAS[HAND], change[side], side)
        return change


REQUEST_SCHEMAS = {HAND: HandBodySchema(), SEAT: SeatChangeSchema()}


def loaded_body(schema: ma.Schema, body: object, field: str) -> dict:
    """``body`` loaded by ``schema``; its errors said as the route says them, under ``field``."""
    try:
        return schema.load(body)
    except ma.ValidationError as invalid:
        raise ma.ValidationError({field: invalid.messages}) from None


class BackupSchema(ma.Schema):
    """A whole session as one JSON document (see the module docstring)."""

    format = fields.String(required=True, validate=validate.Equal(FORMAT), metadata={"description": FORMAT})
    version = fields.Integer(strict=True, required=True, validate=validate.Equal(VERSION))
    exported_at = timestamp("When the document was written; ignored on import")
    name = Name(required=True, max_length=NAME_LENGTH)
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESETS))
    players = fields.List(Name(), required=True, metadata={
        "minItems": 4, "maxItems": 4, "description": "The four who sat down first, in turn order"})
    stakes = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    house_rules = HouseRulesField(load_default=None, allow_none=True)  # those it started with; changes: entries
    created_at = timestamp("When the session was started", required=True)
    entries = fields.List(fields.Nested(BackupEntrySchema), required=True,
                          metadata={"description": "Every hand and seat change in recording order"})
    audit = fields.List(fields.Nested(BackupAuditSchema), required=True,
                        metadata={"description": "Every void, correction and restore, oldest first"})
    state = fields.Nested(StateSchema, required=True,
                          metadata={"description": "The state after the last entry (checked on import)"})
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True,
                         metadata={"description": "Everyone's total (checked on import)"})


# -- queries and answers of hands, previews and reports -----------------------------

INVALID_HAND = ("Not a valid hand at this table now: unknown or unseated player, winner who discarded, "
                "no discarder, negative 台, a hand that is not a win, … (the message and field say which)")


class HandsPageSchema(ma.Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_NUMBER), metadata={
        "description": "Only hands numbered after this one (the last number of the page before)"})
    limit = Bounded(minimum=1, limit_key="HANDS_PAGE_LIMIT", metadata={
        "description": "At most this many hands (a page); without it, every hand after `after`"})


class HandPreviewSchema(ma.Schema):
    """The hand a body would be if recorded now."""

    number = fields.Integer(required=True, metadata={"description": "The number it would get"})
    dealer = fields.String(required=True)
    streak = fields.Integer(required=True)
    round_wind = fields.String(required=True)
    hand_wind = fields.String(required=True)
    wasteland = fields.Integer(required=True)
    payments = amounts("The four seated players; sums to zero")
    scores = fields.List(fields.Nested(WinnerScoreSchema), required=True)
    lines = fields.List(fields.Nested(PaymentLineSchema), required=True)
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state after it"})
    totals = amounts("Every participant's total after it")


class ChangeRequestSchema(ma.Schema):
    """A void (``{"void": true}``) or a correction (``{"body": {...}}``) to preview."""

    void = fields.Boolean(metadata={"description": "Preview voiding the hand"})
    body = fields.Nested(HandBodySchema, metadata={"description": "Preview replacing (or restoring) the hand"})

    @ma.validates_schema
    def one_of(self, data, **_):
        if bool(data.get("void")) == ("body" in data):
            raise ma.ValidationError('give either "void": true or "body"', "_schema")


class HandSideSchema(ma.Schema):
    void = fields.Boolean(required=True)
    dealer = fields.String(required=True)
    streak = fields.Integer(required=True)
    values = fields.List(fields.Integer(), required=True, metadata={"description": "Each winner's 台 or points"})
    payments = amounts("The four seated players (empty for a voided hand)")


class HandChangeSchema(ma.Schema):
    number = fields.Integer(required=True)
    before = fields.Nested(HandSideSchema, required=True)
    after = fields.Nested(HandSideSchema, required=True)


class HouseRulesPreviewSchema(ma.Schema):
    house_rules = fields.Dict(keys=fields.String(), required=True, metadata={"description": "The rules, as checked"})
    changes = fields.List(fields.Nested(HandChangeSchema), required=True, metadata={
        "description": "Every hand whose dealer, streak, values or payments would change, in order"})
    totals_before = amounts("Every participant's total now")
    totals_after = amounts("Every participant's total after the correction")
    replaces = fields.List(fields.Nested(HouseRulesChangeSchema), required=True, metadata={
        "description": "The changes made from a hand on that the correction would replace"})


class ChangePreviewSchema(ma.Schema):
    number = fields.Integer(required=True, metadata={"description": "The hand voided or corrected"})
    action = fields.String(required=True, metadata={"description": "void, correct or restore"})
    changes = fields.List(fields.Nested(HandChangeSchema), required=True, metadata={
        "description": "Every hand that would change (the hand itself first), in order"})
    totals_before = amounts("Every participant's total now")
    totals_after = amounts("Every participant's total after the change")


class ReportQuerySchema(RoundingQuerySchema, LanguageQuerySchema):
    tz = fields.String(load_default="UTC", validate=valid_time_zone, metadata={
        "description": "The IANA time zone of the times shown (corrected 21:14), e.g. Asia/Taipei"})


class PictureQuerySchema(LanguageQuerySchema):
    token = fields.String(load_only=True, metadata={
        "description": "The session's token, instead of the Authorization header (for an <img> or a link)"})


class CardQuerySchema(RoundingQuerySchema, PictureQuerySchema):
    pass


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
    running_totals = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()), required=True, metadata={
        "description": "Every participant's total before the first hand and after each played hand (a voided "
                       "hand leaves none), never rounded: the evening's chart"})
