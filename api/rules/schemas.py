"""The schemas of what a rule set scores: a hand's tiles, how it was won, options, house rules, the breakdown.

Used by ``POST /api/score``, an evening's full entry and a group's defaults. Schemas check the *shape*;
the ledger checks the meaning (``house_rules`` by ``ledger.house_rules``, one function for every place a
profile arrives, its 422 naming the key).
"""
import marshmallow as ma
from marshmallow import fields, validate

from api.http.fields import StrictBoolean
from ledger.payments import DEALER_EXTRAS
from ledger.scoring import WIN_BY
from ledger.table import WINDS

MELD_KINDS = ("chow", "pung", "kong")
MAX_TILE_TEXT = 200  # characters of tile notation in one field; a real hand needs far fewer
_PATTERN_IDS = {"type": "array", "items": {"type": "string"}}
_WHOLE = {"type": "integer", "minimum": 0}
#: The document's shape, for the OpenAPI description (its type, object or null, is the field's);
#: its meaning is checked by ``ledger.house_rules``.
HOUSE_RULES_SPEC = {
    "properties": {
        "values": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 1000},
                   "description": "pattern id -> value in the pattern's own unit"},
        "off": {**_PATTERN_IDS, "description": "patterns that never count"},
        "on": {**_PATTERN_IDS, "description": "the other rule set's patterns (taiwan <-> taiwan_zz), or half_melded"},
        "dealer_extra": {"type": "string", "enum": list(DEALER_EXTRAS)},
        "max_dealer_extra": {**_WHOLE, "maximum": 1000, "description": "cap on the dealer extra, in 台"},
        "lei_cap": {**_WHOLE, "minimum": 1, "maximum": 1000, "description": "shanghai: the 勒子 cap in points"},
        "false_win": {"type": "object", "description": '詐胡: {"as_self_draw": N} or {"amount": A}'},
    },
    "description": "House rules (RULES.md §8); GET /api/rulesets says what each rule set lets them change",
}


class HouseRulesField(fields.Dict):
    """House rules: an object whose keys and values the ledger checks (``ledger.house_rules``)."""

    def __init__(self, **kwargs):
        nullable = {"nullable": True} if kwargs.get("allow_none") else {}  # apispec leaves it out for a Dict
        super().__init__(keys=fields.String(), metadata={**HOUSE_RULES_SPEC, **nullable}, **kwargs)


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


# -- POST /api/score and GET /api/rulesets ----------------------------------------------


class ScoreRequestSchema(ma.Schema):
    ruleset = fields.String(required=True, metadata={"description": "`taiwan`, `taiwan_zz` or `shanghai`"})
    hand = fields.Nested(HandSchema, load_default=dict, metadata={
        "description": "May be left out, except `flowers`, for the flower events"})
    win = fields.Nested(WinSchema, load_default=dict)
    seat_wind = fields.String(load_default="E", validate=validate.OneOf(WINDS))
    round_wind = fields.String(load_default="E", validate=validate.OneOf(WINDS))
    hand_wind = fields.String(load_default="E", validate=validate.OneOf(WINDS))
    dealer = StrictBoolean(load_default=None, allow_none=True,
                            metadata={"description": "Defaults to seat_wind == E"})
    options = OptionsField()
    house_rules = HouseRulesField(load_default=None, allow_none=True)


class PatternInfoSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    value = fields.Integer(required=True)
    unit = fields.String(required=True)
    replaces = fields.List(fields.String())


class OptionInfoSchema(ma.Schema):
    id = fields.String(required=True)
    default = fields.Raw(allow_none=True, metadata={"description": "A boolean, an integer or null"})
    type = fields.String(required=True)
    description = fields.String(required=True)


class RuleSetSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    unit = fields.String(required=True)
    hand_size = fields.Integer(required=True)
    patterns = fields.List(fields.Nested(PatternInfoSchema), required=True)
    options = fields.List(fields.Nested(OptionInfoSchema), required=True)
    events = fields.List(fields.String(), required=True)
    house_rules = fields.Dict(required=True, metadata={
        "description": "What house rules may change here: keys, the patterns values/off may name, the "
                       "patterns on may switch on (with their value), dealer_extra, lei_cap, the 詐胡 default"})
