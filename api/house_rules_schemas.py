"""The ``house_rules`` request field (API.md "House rules"): its shape for the OpenAPI document.

What the keys and values mean is checked by ``ledger.profile`` (one function
for every place a profile arrives), whose 422 names the offending key.
"""
from marshmallow import fields

from ledger.payments import DEALER_EXTRAS

_PATTERN_IDS = {"type": "array", "items": {"type": "string"}}
_WHOLE = {"type": "integer", "minimum": 0}
#: The document's shape, for the OpenAPI description (its type, object or null, is the field's);
#: its meaning is checked by ``ledger.profile``.
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
    """House rules: an object whose keys and values the ledger checks (``ledger.profile``)."""

    def __init__(self, **kwargs):
        nullable = {"nullable": True} if kwargs.get("allow_none") else {}  # apispec leaves it out for a Dict
        super().__init__(keys=fields.String(), metadata={**HOUSE_RULES_SPEC, **nullable}, **kwargs)
