"""The backup document (備份) of a session: its marshmallow schema, for export and import alike.

A document holds what was entered, never what was derived, plus the state and
totals the entries add up to as a check:

- ``format`` (``taizhang-session``) and ``version`` (1), ``exported_at``;
- ``name``, ``ruleset``, ``players`` (the first four, turn order), ``stakes``,
  ``options`` (with the rule set's defaults filled in), ``house_rules`` (the
  evening's, in full; absent or null: none), ``created_at``;
- ``entries``: every hand and seat change (替補) in recording order, each with
  its ``body`` as it stands now (after corrections), ``void`` (作廢) for a
  hand, who entered it (``client``) and when;
- ``audit``: every void, correction (更正) and restore of a hand, and every
  change of the house rules (no hand number), oldest first, with before and after;
- ``state`` and ``totals``: what replaying the entries gives. Import replays
  the entries and refuses a document whose replay does not give these.
"""
import datetime

import marshmallow as ma
from marshmallow import fields, validate

from api.house_rules_schemas import HouseRulesField
from api.schemas import Name
from api.session_schemas import AuditSchema, StateSchema
from ledger.entries import RULESETS
from ledger.store import CLIENT_LENGTH, HAND, SEAT

FORMAT = "taizhang-session"
VERSION = 1
NAME_LENGTH = 200
EARLIEST = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)  # before Taizhang, and any phone
CLOCK_SKEW = datetime.timedelta(minutes=5)  # the exporting server's clock may run a little ahead of ours


class Timestamp(fields.AwareDateTime):
    """An ISO 8601 date-time with its UTC offset, read back in UTC: from 2000 up to now (``CLOCK_SKEW`` allowed).

    A date that cannot be moved to UTC (``0001-01-01T00:00:00+01:00``) or that
    has not happened yet is refused (README, "Rulings": an import holds what
    happened, nothing else).
    """

    default_error_messages = {"range": "Must be a moment from 2000-01-01 up to now (in UTC), not {value}."}

    def _deserialize(self, value, attr, data, **kwargs):
        moment = super()._deserialize(value, attr, data, **kwargs)
        try:
            moment = moment.astimezone(datetime.timezone.utc)
        except OverflowError:
            raise self.make_error("range", value=value) from None
        if not EARLIEST <= moment <= datetime.datetime.now(datetime.timezone.utc) + CLOCK_SKEW:
            raise self.make_error("range", value=value)
        return moment


def timestamp(description: str, **kwargs) -> Timestamp:
    """An ISO 8601 date-time with its UTC offset (read back in UTC, from 2000 up to now)."""
    return Timestamp(format="iso", metadata={"description": description}, **kwargs)


class BackupEntrySchema(ma.Schema):
    """One hand or seat change, as entered."""

    kind = fields.String(required=True, validate=validate.OneOf((HAND, SEAT)),
                         metadata={"description": "`hand` or `seat` (a seat change, 替補)"})
    number = fields.Integer(strict=True, allow_none=True, load_default=None, metadata={
        "description": "A hand's number: 1, 2, 3, … in order; null for a seat change"})
    body = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The request body as it stands now (after corrections)"})
    void = fields.Boolean(load_default=False, metadata={"description": "作廢: kept, counts for nothing"})
    client = Name(load_default="unknown", max_length=CLIENT_LENGTH,
                  metadata={"description": "Who entered it (X-Client label)"})
    created_at = timestamp("When it was entered", required=True)
    updated_at = timestamp("When it last changed", required=True)


class BackupAuditSchema(AuditSchema):
    """One void, correction or restore, as ``GET /audit`` lists it."""

    at = timestamp("When", required=True)
    who = Name(required=True, max_length=CLIENT_LENGTH, metadata={"description": "The X-Client label, or unknown"})


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
    house_rules = HouseRulesField(load_default=None, allow_none=True)
    created_at = timestamp("When the session was started", required=True)
    entries = fields.List(fields.Nested(BackupEntrySchema), required=True,
                          metadata={"description": "Every hand and seat change in recording order"})
    audit = fields.List(fields.Nested(BackupAuditSchema), required=True,
                        metadata={"description": "Every void, correction and restore, oldest first"})
    state = fields.Nested(StateSchema, required=True,
                          metadata={"description": "The state after the last entry (checked on import)"})
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True,
                         metadata={"description": "Everyone's total (checked on import)"})
