"""Marshmallow schemas shared by the scoring and the session endpoints.

Schemas check the *shape* of a request (types, known fields, enumerations);
the ledger checks what the shape means (legal tiles, a winning hand, flags
that can happen together) and raises :class:`~ledger.errors.LedgerError`.
"""
import marshmallow as ma
from marshmallow import fields, validate

from api.config import DEFAULTS, limit
from api.text import normal_name
from ledger.scoring import WIN_BY

MELD_KINDS = ("chow", "pung", "kong")
MAX_TILE_TEXT = 200  # characters of tile notation in one field; a real hand needs far fewer


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only: ``"yes"``, ``1`` or ``"on"`` are refused, not guessed at."""

    truthy = {True}
    falsy = {False}


class Name(fields.String):
    """A name, kept normalised (NFC, trimmed: ``api.text.normal_name``): 1 to ``max_length`` characters.

    ``max_length`` is a config key (``MAX_NAME_LENGTH`` for a player) or a number; the
    length is checked as sent, which is what the OpenAPI document states, and once
    normalised, which is what is kept. Refused characters never get here
    (``api.text.check_json`` saw the whole body first).
    """

    default_error_messages = {"blank": "A name must be non-empty text, not only spaces.",
                              "too_long": "At most {maximum} characters."}

    def __init__(self, *, max_length: str | int = "MAX_NAME_LENGTH", **kwargs):
        self.max_length = max_length
        documented = DEFAULTS[max_length] if isinstance(max_length, str) else max_length
        metadata = {"minLength": 1, "maxLength": documented, "pattern": r"\S",
                    "description": "Trimmed and NFC-normalised; no control or invisible format characters",
                    **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        sent = super()._deserialize(value, attr, data, **kwargs)
        name = normal_name(sent)
        if not name:
            raise self.make_error("blank")
        maximum = limit(self.max_length) if isinstance(self.max_length, str) else self.max_length
        if max(len(sent), len(name)) > maximum:
            raise self.make_error("too_long", maximum=maximum)
        return name


class Bounded(fields.Integer):
    """A whole number from ``minimum`` up to the app's setting ``limit_key`` (``api.config``)."""

    default_error_messages = {"range": "Must be a whole number from {minimum} to {maximum}."}

    def __init__(self, *, minimum: int, limit_key: str, **kwargs):
        self.minimum, self.limit_key = minimum, limit_key
        metadata = {"minimum": minimum, "maximum": DEFAULTS[limit_key], **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        number = super()._deserialize(value, attr, data, **kwargs)
        maximum = limit(self.limit_key)
        if not self.minimum <= number <= maximum:
            raise self.make_error("range", minimum=self.minimum, maximum=maximum)
        return number


def configured_limits(app):
    """An apispec attribute function: the OpenAPI document states this app's limits, not the defaults."""

    def limits(converter, field, **kwargs) -> dict:
        if isinstance(field, Name) and isinstance(field.max_length, str):
            return {"maxLength": app.config[field.max_length]}
        if isinstance(field, Bounded):
            return {"maximum": app.config[field.limit_key]}
        return {}

    return limits


class Tiles(fields.Field):
    """Tiles as a compact string (``"123m11z"``), Chinese names, or a list of tile strings."""

    default_error_messages = {"invalid": "Must be a string of tiles or a list of tile strings.",
                              "too_long": f"At most {MAX_TILE_TEXT} characters of tiles."}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            text = value
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            text = "".join(value)
        else:
            raise self.make_error("invalid")
        if len(text) > MAX_TILE_TEXT:
            raise self.make_error("too_long")
        return value


TILES_SPEC = {"oneOf": [{"type": "string", "maxLength": MAX_TILE_TEXT},
                        {"type": "array", "items": {"type": "string"}, "maxItems": MAX_TILE_TEXT}]}


def tiles_field(description: str, **kwargs) -> Tiles:
    return Tiles(metadata={**TILES_SPEC, "description": description}, **kwargs)


class MeldSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(MELD_KINDS))
    tiles = tiles_field("The meld's tiles, e.g. `345s` or `1111z`", required=True)
    concealed = StrictBoolean(load_default=False, metadata={"description": "Concealed kong (暗槓)"})


class HandSchema(ma.Schema):
    concealed = tiles_field("Tiles in hand without the winning tile", load_default="")
    melds = fields.List(fields.Nested(MeldSchema), load_default=list,
                        validate=validate.Length(max=6))
    winning_tile = tiles_field("The tile that completed the hand")
    flowers = tiles_field("Flowers, e.g. `2f5f` or `梅蘭`", load_default="")


class WinSchema(ma.Schema):
    by = fields.String(load_default="discard", validate=validate.OneOf(WIN_BY))
    after_kong = StrictBoolean(load_default=False, metadata={"description": "槓上開花 / 槓開"})
    last_tile = StrictBoolean(load_default=False, metadata={"description": "海底撈月 / 河底撈魚"})
    declared_ready = StrictBoolean(load_default=False, metadata={"description": "立直 / 聽牌 declared"})
    event = fields.String(load_default=None, allow_none=True, metadata={
        "description": "heavenly_win, earthly_win, heavenly_ready, earthly_ready, eight_flowers or "
                       "seven_flowers_rob, as the rule set allows"})


class OptionsField(fields.Dict):
    """Rule-set options: names and types are checked by the rule set itself."""

    def __init__(self, **kwargs):
        super().__init__(keys=fields.String(), metadata={
            "description": "Rule-set options, see `GET /api/rulesets`"}, load_default=dict, **kwargs)


class ScoredPatternSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    value = fields.Integer(required=True)
    unit = fields.String(metadata={"description": "`flower`, `fan` or `lei` (shanghai only)"})


class ScoreSchema(ma.Schema):
    """The breakdown of one win, as ``/api/score`` returns it."""

    ruleset = fields.String(required=True)
    unit = fields.String(required=True, metadata={"description": "`tai`, or `flower` for shanghai"})
    total = fields.Integer(required=True, metadata={"description": "Sum of patterns[].value"})
    patterns = fields.List(fields.Nested(ScoredPatternSchema), required=True)
    sets = fields.List(fields.List(fields.String()), required=True)
    pair = fields.List(fields.String(), required=True)
    waits = fields.List(fields.String(), required=True)
    wait = fields.String(metadata={"description": "How the winning tile sat: two_sided, edge, closed, "
                                                  "single or dual_pung"})
    flowers = fields.Integer(metadata={"description": "shanghai: 花 count, without the base 2"})
    lei = fields.Integer(metadata={"description": "shanghai: Σ勒, 0 for a 花 hand"})
    fan = fields.Integer(metadata={"description": "shanghai: 番"})
    points = fields.Integer(metadata={"description": "shanghai: one share in 底分, before 荒番"})
