"""Marshmallow schemas of the session, hand and seat endpoints (API.md: Sessions, Hands, Seats).

Request schemas check the *shape* (types, known fields, enumerations); the
ledger checks the meaning (players seated, a discarder for a discard, a
winning hand, positive stakes, …) and names the offending field. Response
schemas document what the endpoints return; timestamps are ISO 8601 strings
in UTC.
"""
import marshmallow as ma
from marshmallow import fields, validate

from api.house_rules_schemas import HouseRulesField
from api.schemas import HandSchema, Name, OptionsField, ScoreSchema, StrictBoolean, WinSchema
from ledger.entries import DRAW_REASONS, RULESETS
from ledger.payments import MAX_STAKE
from ledger.scoring import WIN_BY
from ledger.store import KEY_LENGTH
from ledger.table import WINDS

NAME_LENGTH = 200  # the evening's name (players' names: MAX_NAME_LENGTH, api.config)
PLAYERS = 4
MAX_WINNERS = 3  # one discard pays at most the three other players
TIMESTAMP = {"format": "date-time", "description": "ISO 8601, UTC"}


def strict_int(description: str, metadata: dict | None = None, **kwargs) -> fields.Integer:
    """A JSON integer (``3.0`` or ``"3"`` refused); ``metadata`` documents ranges the ledger checks."""
    return fields.Integer(strict=True, metadata={"description": description, **(metadata or {})}, **kwargs)


# -- requests ------------------------------------------------------------------


class StakesSchema(ma.Schema):
    base = strict_int("底 (taiwan, taiwan_zz) or 底分 (shanghai): a positive whole amount", required=True,
                      metadata={"minimum": 1, "maximum": MAX_STAKE})
    per_tai = strict_int("台: a positive whole amount per 台 (taiwan, taiwan_zz only; 0 or left out in shanghai)",
                         metadata={"minimum": 0, "maximum": MAX_STAKE})


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
        """Required, except in a group's evening (whose defaults may give them: ``api.group_records``)."""
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
    """One finished hand: winners with `by` (and `discarder`), or `draw: true`.

    Values that depend on the table (who is seated, which rule set) and the
    ranges of `by`, `reason`, `dice` and `three_mouth` are checked by the
    ledger, whose 422 names the field (`field`).
    """

    winners = fields.List(fields.Nested(WinnerSchema), validate=validate.Length(max=MAX_WINNERS))
    by = fields.String(allow_none=True, metadata={
        "enum": list(WIN_BY), "description": "discard (放槍), self_draw (自摸) or robbing_kong (搶槓)"})
    discarder = Name(allow_none=True, metadata={
        "description": "Who discarded; for robbing_kong the robbed player; for 七搶一 the eighth flower's holder"})
    draw = StrictBoolean(metadata={"description": "true for a draw (流局): no winners"})
    reason = fields.String(metadata={"enum": list(DRAW_REASONS),
                                     "description": "Why the draw; only with draw: true (else a 422)"})
    dice = fields.List(strict_int("One die, 1–6"), metadata={
        "minItems": 2, "maxItems": 2, "description": "shanghai: the two dice thrown before the hand (荒番)"})
    three_mouth = fields.List(fields.List(Name(), metadata={"minItems": 2, "maxItems": 2}), metadata={
        "description": "shanghai: 三口 pairs of two different seated players, e.g. [[\"Amy\", \"Ben\"]]"})
    discarder_ready = StrictBoolean(metadata={"description": "shanghai: the discarder was ready (聽牌)"})
    false_win = Name(metadata={
        "description": "詐胡: the player who claimed a win falsely; alone in the body. They pay each other "
                       "player the house rules' penalty, and the hand is played again (same dealer and winds)"})

    @ma.post_load(pass_original=True)
    def keep_normalised_names(self, hand, sent, **kwargs):
        """The body is kept as sent (``request.sent_json()``): its names become the normalised ones.

        So ``"Amy "`` or a decomposed accent names the seated player, in the
        recorded body too, and a correction compares like with like.
        """
        for winner, sent_winner in zip(hand.get("winners", ()), sent.get("winners", ())):
            sent_winner["player"] = winner["player"]
        if hand.get("discarder") is not None:
            sent["discarder"] = hand["discarder"]
        if "three_mouth" in hand:
            sent["three_mouth"] = [list(pair) for pair in hand["three_mouth"]]
        if "false_win" in hand:
            sent["false_win"] = hand["false_win"]
        return hand


class SeatChangeSchema(ma.Schema):
    seat = strict_int("0–3, turn order", required=True, metadata={"minimum": 0, "maximum": 3})
    player = Name(required=True, metadata={"description": "Who sits there from the next hand on"})

    @ma.post_load(pass_original=True)
    def keep_normalised_name(self, change, sent, **kwargs):
        """The body is kept as sent (``request.sent_json()``): its name becomes the normalised one."""
        sent["player"] = change["player"]
        return change


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


def amounts(description: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                       metadata={"description": description})


class SeatChangeOutSchema(ma.Schema):
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    replaces = fields.String(required=True, metadata={"description": "Who sat there before"})
    hands_played = fields.Integer(required=True, metadata={
        "description": "Hands played (that count) before the change took effect"})
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state right after"})
    client = fields.String(required=True, metadata={"description": "Who entered it (X-Client header)"})
    created_at = fields.String(required=True, metadata=TIMESTAMP)


class SessionSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "The first four, in turn order"})
    stakes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    options = fields.Dict(keys=fields.String(), required=True, metadata={"description": "With defaults filled in"})
    house_rules = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The evening's house rules, as checked ({} for none)"})
    state = fields.Nested(SessionStateSchema, required=True)
    totals = amounts("Everyone who played, in order of first appearance; sums to zero")
    seat_changes = fields.List(fields.Nested(SeatChangeOutSchema), required=True)
    next_hand = fields.Integer(required=True, metadata={
        "description": "The number the next hand gets: hands are numbered 1, 2, 3, … and a voided hand keeps its own"})
    created_at = fields.String(required=True, metadata=TIMESTAMP)
    revision = fields.Integer(required=True, metadata={
        "description": "Grows by one with every change (also the ETag); send it back as If-Match"})
    access = fields.String(required=True, validate=validate.OneOf(("write", "read")), metadata={
        "description": "What the request's token may do: `write` (everything) or `read` (read-only link)"})
    group = fields.String(allow_none=True, metadata={"description": "The group the evening belongs to, if any"})


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


class AuditSchema(ma.Schema):
    """One void (作廢), correction (更正) or restore of a hand, or closing or reopening the evening."""

    number = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The hand; null for close, reopen and a change of the house rules"})
    action = fields.String(required=True, validate=validate.OneOf(
        ("void", "correct", "restore", "close", "reopen", "house_rules")))
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
CLIENT_HEADER = {
    "in": "header", "name": "X-Client", "required": False, "schema": {"type": "string"},
    "description": "A label for who is entering (kept with the entry and in the audit trail, "
                   "cut to its first 100 characters)",
}
