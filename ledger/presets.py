"""House-rule presets (家規範本): the common variants, as data a table starts from.

Each is a named ``house_rules`` document for one rule set, worded in the words tables (``preset.``),
checked by a test; an evening keeps the document, never the preset's name. The "printed 台 table"
follows the 台數表 Taiwanese tables commonly print, which differs from seed 004 in exactly its rows.

>>> PRESETS[0].name["zh"], PRESETS[0].description["en"][:20]
('常見台數表', '大四喜 16, 小四喜 8, 大三元 8')
"""
from __future__ import annotations

from typing import NamedTuple

from words import ENGLISH, SIMPLIFIED, TRADITIONAL, word

#: The languages of a preset's texts, keyed as ``GET /api/rulesets`` has always keyed them.
TEXT_LANGUAGES = {"en": ENGLISH, "zh": TRADITIONAL, "zh-Hans": SIMPLIFIED}


class Preset(NamedTuple):
    """A named set of house rules for one rule set; its words are ``preset.name.<name_key or id>`` and
    ``preset.text.<text_key or id>``."""

    id: str
    ruleset: str
    house_rules: dict
    name_key: str | None = None
    text_key: str | None = None

    @property
    def name(self) -> dict[str, str]:
        return _texts(f"preset.name.{self.name_key or self.id}")

    @property
    def description(self) -> dict[str, str]:
        return _texts(f"preset.text.{self.text_key or self.id}")

    def describe(self) -> dict:
        return {"id": self.id, "name": self.name, "description": self.description, "house_rules": self.house_rules}


def _texts(key: str) -> dict[str, str]:
    return {tag: word(lang, key) for tag, lang in TEXT_LANGUAGES.items()}


PRESETS = (
    Preset("printed_table", "taiwan",
           {"values": {"big_four_winds": 16, "small_four_winds": 8, "big_three_dragons": 8,
                       "four_concealed_pungs": 5, "heavenly_win": 24, "earthly_win": 16},
            "on": ["single_wait"]}),
    Preset("linear_dealer", "taiwan", {"dealer_extra": "1+n"}),
    Preset("no_flowers", "taiwan", {"off": ["flower_set", "seat_flower"]}, text_key="no_flowers_taiwan"),
    Preset("half_melded", "taiwan", {"on": ["half_melded"]}),
    Preset("linear_dealer", "taiwan_zz", {"dealer_extra": "1+n"}),
    Preset("no_flowers", "taiwan_zz", {"off": ["any_flower", "flower_set", "seat_flower"]},
           text_key="no_flowers_taiwan_zz"),
    Preset("taiwan_extras", "taiwan_zz", {"on": ["all_simples", "mixed_triple_chow", "pure_straight"]}),
    Preset("lei_cap_20", "shanghai", {"lei_cap": 20}),
    Preset("no_flowers", "shanghai", {"off": ["flower"]}, name_key="no_flower_tiles", text_key="no_flowers_shanghai"),
)


def presets_for(ruleset_id: str) -> list[dict]:
    """The presets of one rule set, as ``GET /api/rulesets`` lists them."""
    return [preset.describe() for preset in PRESETS if preset.ruleset == ruleset_id]
