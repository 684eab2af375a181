"""Marshmallow schemas of the group endpoints (API.md: Groups); ``api.groups.service`` checks the meaning
and names the field. Members are named by id or current name wherever a request names one.
"""
import marshmallow as ma
from marshmallow import fields, validate

from api.http.fields import ROW_ID_MAX, TIMESTAMP, Bounded, BoundedList, Day, Name, StakesSchema, strict_int, timestamp
from api.http.files import LanguageQuerySchema
from api.rules.schemas import HouseRulesField
from api.sessions.schemas import BackupSchema
from ledger.entries import RULESETS
from ledger.group_store import NAME_LENGTH
from ledger.payments import MONEY_MAX

GROUP_FORMAT = "taizhang-group"
GROUP_VERSION = 1
MEMBER_REF = {"description": "A member: its id or its current name"}
# Past this a phone would show the amount wrong (ledger.payments.MONEY_MAX); 0 and below: api.groups.service says.
AT_MOST_MONEY_MAX = validate.Range(max=MONEY_MAX)


def member_ref(**kwargs) -> Name:
    """A field naming a member (its id or current name)."""
    return Name(max_length=NAME_LENGTH, metadata={**MEMBER_REF, **kwargs.pop("metadata", {})}, **kwargs)


# -- requests ------------------------------------------------------------------


class DefaultsSchema(ma.Schema):
    """What a new evening of the group starts with unless its request says otherwise."""

    ruleset = fields.String(validate=validate.OneOf(RULESETS))
    stakes = fields.Nested(StakesSchema)
    options = fields.Dict(keys=fields.String(), metadata={"description": "Rule-set options, see `GET /api/rulesets`"})
    house_rules = HouseRulesField(allow_none=True)


class GroupCreateSchema(ma.Schema):
    name = Name(required=True, max_length=NAME_LENGTH, metadata={"description": "e.g. Friday club"})
    defaults = fields.Nested(DefaultsSchema, load_default=dict)


class GroupEditSchema(ma.Schema):
    """``PATCH /api/groups/<id>``: what is given is replaced; ``defaults`` whole (an evening's form starts from
    them, and the evening may still change any of them)."""

    name = Name(max_length=NAME_LENGTH, metadata={"description": "The group's new name"})
    defaults = fields.Nested(DefaultsSchema, metadata={
        "description": "What a new evening starts with: ruleset, stakes, options, house_rules (all replaced); "
                       "evenings already started keep theirs"})

    @ma.validates_schema
    def something(self, data, **_):
        """An edit that changes nothing is a mistake of the caller's (the fuzzing sent a PATCH without a body)."""
        if not data:
            raise ma.ValidationError("Give the group's new name, its defaults or both.", "_schema")


class MemberCreateSchema(ma.Schema):
    name = Name(required=True, max_length=NAME_LENGTH)
    aliases = BoundedList(Name(max_length=NAME_LENGTH), limit_key="MAX_ALIASES", load_default=list, metadata={
        "description": "Other names the member went by (in old evenings)"})


class MemberEditSchema(ma.Schema):
    name = Name(max_length=NAME_LENGTH, metadata={"description": "The new display name (the old one becomes an "
                                                                  "alias unless `aliases` is given)"})
    aliases = BoundedList(Name(max_length=NAME_LENGTH), limit_key="MAX_ALIASES",
                          metadata={"description": "All of the member's aliases"})


class MergeSchema(ma.Schema):
    into = member_ref(required=True)


class PaymentInSchema(ma.Schema):
    from_ = member_ref(required=True, data_key="from", attribute="from",
                       metadata={"description": "Who paid (id or name)"})
    to = member_ref(required=True, metadata={"description": "Who was paid (id or name)"})
    amount = strict_int("A positive whole amount", required=True, validate=AT_MOST_MONEY_MAX,
                        metadata={"minimum": 1, "maximum": MONEY_MAX})
    note = fields.String(validate=validate.Length(max=NAME_LENGTH), load_default="")
    session = fields.String(allow_none=True, load_default=None, metadata={
        "description": "The evening of the group it settles, if any"})


class PaymentsPostSchema(ma.Schema):
    """One payment (`from`, `to`, `amount`), or several at once: `payments` (the Settle view's "mark paid")."""

    from_ = member_ref(data_key="from", attribute="from")
    to = member_ref()
    amount = strict_int("A positive whole amount", validate=AT_MOST_MONEY_MAX, metadata={"minimum": 1, "maximum": MONEY_MAX})
    note = fields.String(validate=validate.Length(max=NAME_LENGTH), load_default="")
    session = fields.String(allow_none=True, load_default=None, metadata={
        "description": "The evening of the group it settles, if any (for every payment of a batch)"})
    payments = BoundedList(fields.Nested(PaymentInSchema(exclude=("session",))), limit_key="MAX_PAYMENTS_PER_REQUEST",
                           validate=validate.Length(min=1),
                           metadata={"description": "Several payments, recorded in one transaction"})

    @ma.validates_schema(skip_on_field_errors=False, pass_original=True)
    def one_or_many(self, data, original, **kwargs):
        single = [key for key in ("from", "to", "amount") if key in data]
        if "payments" in data and single:
            raise ma.ValidationError("Send either payments or from, to and amount, not both.")
        if "payments" not in data and not (isinstance(original, dict) and "payments" in original):
            missing = {key: ["Missing data for required field."] for key in ("from", "to", "amount")
                       if key not in data}
            if missing:
                raise ma.ValidationError(missing)


class SeasonCreateSchema(ma.Schema):
    name = Name(required=True, max_length=NAME_LENGTH)
    from_ = fields.Date(required=True, data_key="from", attribute="from",
                        metadata={"description": "The first day, YYYY-MM-DD"})
    to = fields.Date(required=True, metadata={"description": "The last day (included), YYYY-MM-DD"})


class BalancesQuerySchema(ma.Schema):
    round_to = Bounded(minimum=1, limit_key="MAX_ROUND_TO", metadata={
        "description": "Round every balance to a multiple of this (the smallest note or coin)"})


class PeriodQuerySchema(ma.Schema):
    from_ = Day(data_key="from", attribute="from", metadata={"description": "The first day, YYYY-MM-DD"})
    to = Day(metadata={"description": "The last day (included), YYYY-MM-DD"})
    season = fields.Integer(strict=False, validate=validate.Range(min=1, max=ROW_ID_MAX), metadata={
        "description": "A season's id: its period (from/to refine it)"})


class StandingsQuerySchema(PeriodQuerySchema):
    min_evenings = fields.Integer(load_default=0, validate=validate.Range(min=0), metadata={
        "description": "Leave out members with fewer evenings in the period"})


class AttachSchema(ma.Schema):
    session = fields.String(required=True, metadata={"description": "The evening's id"})
    token = fields.String(required=True, metadata={"description": "The evening's write token"})
    players = fields.Dict(keys=Name(), values=member_ref(), load_default=dict, metadata={
        "description": "Player name -> member; names left out map to the member (or alias) of that name"})


class EveningImportSchema(ma.Schema):
    export = fields.Nested(BackupSchema, required=True, metadata={
        "description": "An evening's export (GET /api/sessions/<id>/export)"})
    players = fields.Dict(keys=Name(), values=member_ref(), load_default=dict, metadata={
        "description": "Player name -> member; names left out map to the member (or alias) of that name"})


# -- responses -----------------------------------------------------------------


class MemberSchema(ma.Schema):
    id = fields.String(required=True, metadata={"description": "Stable: a rename keeps it"})
    name = fields.String(required=True, metadata={"description": "The name shown now"})
    aliases = fields.List(fields.String(), required=True)


class EveningSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    ruleset = fields.String(required=True)
    created_at = fields.String(required=True, metadata=TIMESTAMP)
    closed = fields.Boolean(required=True)
    hand_count = fields.Integer(required=True, metadata={"description": "The hands that count (voided ones left "
                                                                        "out), as the table's hands played"})
    players = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Each player name of the evening, as recorded -> the member's id"})
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class SeasonSchema(ma.Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    from_ = fields.String(required=True, data_key="from", attribute="from", metadata={"format": "date"})
    to = fields.String(required=True, metadata={"format": "date"})


class GroupTokensSchema(ma.Schema):
    admin_token = fields.String(required=True, metadata={"description": "Shown once: everything, roster and tokens"})
    member_token = fields.String(required=True, metadata={
        "description": "Shown once: what an evening's write token does, on every evening; guests, payments"})
    read_token = fields.String(required=True, metadata={"description": "Shown once: reads everything"})


class GroupCreatedSchema(GroupTokensSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    defaults = fields.Dict(required=True)


class GroupSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    defaults = fields.Dict(required=True)
    access = fields.String(required=True, validate=validate.OneOf(("admin", "member", "read")))
    members = fields.List(fields.Nested(MemberSchema), required=True)
    evenings = fields.List(fields.Nested(EveningSchema), required=True, metadata={
        "description": "Open evenings first, then newest first"})
    seasons = fields.List(fields.Nested(SeasonSchema), required=True)


class PaymentSchema(ma.Schema):
    id = fields.Integer(required=True)
    from_ = fields.String(required=True, data_key="from", attribute="from",
                          metadata={"description": "The payer's current name"})
    to = fields.String(required=True, metadata={"description": "The payee's current name"})
    from_member = fields.String(required=True)
    to_member = fields.String(required=True)
    amount = fields.Integer(required=True)
    note = fields.String(required=True)
    session = fields.String(required=True, allow_none=True)
    at = fields.String(required=True, metadata=TIMESTAMP)
    void = fields.Boolean(required=True)


class PaymentListSchema(ma.Schema):
    payments = fields.List(fields.Nested(PaymentSchema), required=True)


class PaymentAnswerSchema(PaymentSchema):
    """One payment, or ``{"payments": [...]}`` for a batch (then only that)."""

    payments = fields.List(fields.Nested(PaymentSchema))


BECAUSE = ("What the balance rests on: each evening `{session, name, amount}` (the member's total) and each "
           "payment `{payment, amount}` (+ made, − received)")


class MemberBalanceSchema(ma.Schema):
    member = fields.String(required=True)
    name = fields.String(required=True)
    balance = fields.Integer(required=True, metadata={"description": "Exact (never rounded)"})
    because = fields.List(fields.Dict(), required=True, metadata={"description": BECAUSE})


class GroupTransferSchema(ma.Schema):
    from_ = fields.String(required=True, data_key="from", attribute="from")
    to = fields.String(required=True)
    amount = fields.Integer(required=True)
    from_member = fields.String(required=True)
    to_member = fields.String(required=True)


class BalancesSchema(ma.Schema):
    balances = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "Name -> evening totals + payments made − payments received (rounded with round_to); "
                       "sums to zero"})
    members = fields.List(fields.Nested(MemberBalanceSchema), required=True)
    transfers = fields.List(fields.Nested(GroupTransferSchema), required=True, metadata={
        "description": "The fewest transfers that clear every balance"})
    rounding = fields.Dict(metadata={"description": "Only with round_to: as the evening settlement's"})
    fewest = fields.Boolean(metadata={
        "description": "Only when false: more than 16 open balances, too many to search for the proven fewest; "
                       "the transfers are then the largest-debtor-to-largest-creditor pairing, at most one "
                       "fewer than the open balances"})


class StandingRowSchema(ma.Schema):
    member = fields.String(required=True)
    name = fields.String(required=True)
    net = fields.Integer(required=True)
    evenings = fields.Integer(required=True)
    hands = fields.Integer(required=True, metadata={"description": "Hands sat in (voids excluded)"})
    wins = fields.Integer(required=True)
    self_draws = fields.Integer(required=True)
    deal_ins = fields.Integer(required=True)
    win_rate = fields.Float(required=True, allow_none=True, metadata={
        "description": "wins / hands, 4 places; null without hands"})
    deal_in_rate = fields.Float(required=True, allow_none=True, metadata={
        "description": "deal_ins / hands, 4 places; null without hands"})
    average_per_win = fields.List(fields.Dict(), required=True, metadata={
        "description": "Per unit (tai, points): {unit, average, wins}"})
    biggest_hand = fields.Dict(allow_none=True, required=True)
    longest_dealer_streak = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The longest streak the member dealt at, the table's 連n (the deal kept n times; a 詐胡 "
                       "keeps none), as the page and the sheet show it; null: never dealt"})
    full_hands = fields.Integer(required=True, metadata={"description": "Hands entered in full (tiles)"})
    quick_hands = fields.Integer(required=True)


class StandingRatingSchema(StandingRowSchema):
    rating = fields.Float(required=True, allow_none=True, metadata={
        "description": "μ − 3σ over the same period's closed evenings (GET …/ratings), two decimals; null: no "
                       "rated evening"})


class StandingsSchema(ma.Schema):
    from_ = fields.String(required=True, allow_none=True, data_key="from", attribute="from")
    to = fields.String(required=True, allow_none=True)
    standings = fields.List(fields.Nested(StandingRatingSchema), required=True, metadata={
        "description": "Best net first, ties by name"})


class MemberPageSchema(ma.Schema):
    member = fields.Nested(MemberSchema, required=True)
    overall = fields.Nested(StandingRowSchema, required=True)
    by_ruleset = fields.Dict(keys=fields.String(), values=fields.Nested(StandingRowSchema), required=True)
    patterns = fields.List(fields.Dict(), required=True, metadata={
        "description": "{pattern, ruleset, count}: from full entries only, by rule set (an id names a "
                       "different pattern in each)"})
    full_hands = fields.Integer(metadata={"description": "The full entries the pattern counts rest on"})
    full_wins = fields.Integer(metadata={"description": "The wins among them (each scored its patterns)"})
    series = fields.List(fields.Dict(), required=True, metadata={
        "description": "{session, name, day, net, cumulative} by day"})
    head_to_head = fields.List(fields.Dict(), required=True, metadata={"description": "{member, name, net}"})
    rating = fields.Nested(lambda: RatingSchema(), required=True, allow_none=True,
                           metadata={"description": "Over every closed evening; null: none rated yet"})


class RatingPointSchema(ma.Schema):
    evening = fields.String(required=True, metadata={"description": "The evening (session id) of the game"})
    date = fields.String(required=True, metadata={"format": "date"})
    rating = fields.Float(required=True, metadata={"description": "The rating after that game"})


class RatingSchema(ma.Schema):
    rating = fields.Float(required=True, metadata={"description": "μ − 3σ, two decimals"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True, metadata={"description": "Rated evenings played"})
    history = fields.List(fields.Nested(RatingPointSchema), required=True, metadata={
        "description": "The rating after each game, in replay order: by day, then start, then id"})


class MemberRatingSchema(RatingSchema):
    member = fields.String(required=True)
    name = fields.String(required=True)


class RatingsSchema(ma.Schema):
    model = fields.String(required=True, metadata={"description": "plackett-luce"})
    ratings = fields.List(fields.Nested(MemberRatingSchema), required=True, metadata={
        "description": "Best rating first"})


class GroupAuditSchema(ma.Schema):
    action = fields.String(required=True)
    who = fields.String(required=True)
    at = fields.String(required=True, metadata=TIMESTAMP)
    before = fields.Dict(required=True, allow_none=True)
    after = fields.Dict(required=True, allow_none=True)


class GroupAuditListSchema(ma.Schema):
    audit = fields.List(fields.Nested(GroupAuditSchema), required=True)


# -- export / import -------------------------------------------------------------


class ExportedEveningSchema(ma.Schema):
    id = fields.String(required=True, metadata={"description": "The evening's id in the exporting server"})
    players = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Player name -> member id (of `members`)"})
    export = fields.Nested(BackupSchema, required=True)


class ExportedPaymentSchema(ma.Schema):
    from_ = fields.String(required=True, data_key="from", attribute="from",
                          metadata={"description": "A member id of `members`"})
    to = fields.String(required=True)
    amount = strict_int("Positive", required=True, validate=AT_MOST_MONEY_MAX, metadata={"minimum": 1, "maximum": MONEY_MAX})
    note = fields.String(load_default="", validate=validate.Length(max=NAME_LENGTH))
    session = fields.String(allow_none=True, load_default=None, metadata={"description": "An evening `id`"})
    at = timestamp("When it was recorded", required=True)
    void = fields.Boolean(load_default=False)


class ExportedSeasonSchema(ma.Schema):
    name = Name(required=True, max_length=NAME_LENGTH)
    from_ = fields.Date(required=True, data_key="from", attribute="from")
    to = fields.Date(required=True)


class ExportedMemberSchema(ma.Schema):
    id = fields.String(required=True)
    name = Name(required=True, max_length=NAME_LENGTH)
    aliases = BoundedList(Name(max_length=NAME_LENGTH), limit_key="MAX_ALIASES", load_default=list)


class GroupExportSchema(ma.Schema):
    """A whole group as one document: roster, evenings with every entry, payments, seasons."""

    format = fields.String(required=True, validate=validate.Equal(GROUP_FORMAT))
    version = fields.Integer(strict=True, required=True, validate=validate.Equal(GROUP_VERSION))
    exported_at = timestamp("When the document was written; ignored on import")
    name = Name(required=True, max_length=NAME_LENGTH)
    defaults = fields.Nested(DefaultsSchema, load_default=dict)
    members = BoundedList(fields.Nested(ExportedMemberSchema), limit_key="MAX_MEMBERS", required=True)
    evenings = BoundedList(fields.Nested(ExportedEveningSchema), limit_key="MAX_GROUP_EVENINGS", required=True)
    payments = fields.List(fields.Nested(ExportedPaymentSchema), required=True)
    seasons = fields.List(fields.Nested(ExportedSeasonSchema), required=True)


# -- the queries of the group's reports -------------------------------------------


class SheetQuerySchema(LanguageQuerySchema, PeriodQuerySchema):
    pass


class StandingsCardQuerySchema(LanguageQuerySchema, StandingsQuerySchema):
    pass


class BalancesCardQuerySchema(LanguageQuerySchema, BalancesQuerySchema):
    pass
