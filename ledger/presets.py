"""House-rule presets (家規範本): the common variants, as data a table starts from.

Each preset is a named ``house_rules`` document for one rule set with a
one-line description in English, 繁體中文 ("zh") and 简体中文 ("zh-Hans"); the phone page offers them
when an evening starts, ``GET /api/rulesets`` lists them per rule set, and a
test checks each with ``ledger.house_rules.check_house_rules``. A table changes
a preset freely afterwards: what an evening keeps is the document, never the
preset's name.

The "printed 台 table" preset follows the 台數表 that Taiwanese 16-tile
tables commonly print (大四喜 16, 小四喜 8, 大三元 8, 四暗刻 5, 天胡 24,
地胡 16, 單吊 1), which differs from seed 004 in exactly those rows.
"""
from __future__ import annotations

from typing import NamedTuple


class Preset(NamedTuple):
    """A named set of house rules for one rule set."""

    id: str
    ruleset: str
    name: dict[str, str]
    description: dict[str, str]
    house_rules: dict

    def describe(self) -> dict:
        return {"id": self.id, "name": dict(self.name), "description": dict(self.description),
                "house_rules": self.house_rules}


LINEAR_DEALER = {"en": "連莊 1 + n", "zh": "連莊 1 + n", "zh-Hans": "连庄 1 + n"}
LINEAR_DEALER_TEXT = {"en": "The dealer extra grows by one 台 per hand kept (1, 2, 3 …) instead of two.",
                      "zh": "莊家台每連一把加一台（1、2、3…），不是加兩台。",
                      "zh-Hans": "庄家台每连一把加一台（1、2、3…），不是加两台。"}

PRESETS = (
    Preset("printed_table", "taiwan", {"en": "Printed 台 table", "zh": "常見台數表", "zh-Hans": "常见台数表"},
           {"en": "大四喜 16, 小四喜 8, 大三元 8, 四暗刻 5, 天胡 24, 地胡 16, and 單吊 (獨聽) 1 台.",
            "zh": "大四喜 16、小四喜 8、大三元 8、四暗刻 5、天胡 24、地胡 16，另算單吊（獨聽）1 台。",
            "zh-Hans": "大四喜 16、小四喜 8、大三元 8、四暗刻 5、天胡 24、地胡 16，另算单钓（独听）1 台。"},
           {"values": {"big_four_winds": 16, "small_four_winds": 8, "big_three_dragons": 8,
                       "four_concealed_pungs": 5, "heavenly_win": 24, "earthly_win": 16},
            "on": ["single_wait"]}),
    Preset("linear_dealer", "taiwan", LINEAR_DEALER, LINEAR_DEALER_TEXT, {"dealer_extra": "1+n"}),
    Preset("no_flowers", "taiwan", {"en": "No flowers", "zh": "不算花", "zh-Hans": "不算花"},
           {"en": "花牌 and 花槓 count nothing.", "zh": "花牌、花槓都不算台。", "zh-Hans": "花牌、花杠都不算台。"},
           {"off": ["flower_set", "seat_flower"]}),
    Preset("half_melded", "taiwan", {"en": "半求 counts", "zh": "算半求", "zh-Hans": "算半求"},
           {"en": "All melded but the pair, won by self-draw: 半求 1 台 on top of 自摸.",
            "zh": "全部吃碰只剩單吊而自摸：半求 1 台，另算自摸。",
            "zh-Hans": "全部吃碰只剩单钓而自摸：半求 1 台，另算自摸。"},
           {"on": ["half_melded"]}),
    Preset("linear_dealer", "taiwan_zz", LINEAR_DEALER, LINEAR_DEALER_TEXT, {"dealer_extra": "1+n"}),
    Preset("no_flowers", "taiwan_zz", {"en": "No flowers", "zh": "不算花", "zh-Hans": "不算花"},
           {"en": "花牌, 花槓 and 見花 count nothing.", "zh": "花牌、花槓、見花都不算台。", "zh-Hans": "花牌、花杠、见花都不算台。"},
           {"off": ["any_flower", "flower_set", "seat_flower"]}),
    Preset("taiwan_extras", "taiwan_zz", {"en": "With taiwan's hands", "zh": "加台灣牌型", "zh-Hans": "加台湾牌型"},
           {"en": "Adds 斷么九, 一條龍 and 三色同順 (1 台 each) from the taiwan rule set.",
            "zh": "加算台灣規則的斷么九、一條龍、三色同順（各 1 台）。",
            "zh-Hans": "加算台湾规则的断幺九、清龙、三色三同顺（各 1 台）。"},
           {"on": ["all_simples", "mixed_triple_chow", "pure_straight"]}),
    Preset("lei_cap_20", "shanghai", {"en": "勒子 20", "zh": "勒子 20", "zh-Hans": "勒子 20"},
           {"en": "A 花 hand is worth up to 20 × 底分 instead of 10.", "zh": "花胡最多 20 個底分，不是 10。",
            "zh-Hans": "花胡最多 20 个底分，不是 10。"},
           {"lei_cap": 20}),
    Preset("no_flowers", "shanghai", {"en": "No flower tiles", "zh": "不算花牌", "zh-Hans": "不算花牌"},
           {"en": "Flower tiles give no 花; pungs and kongs still do.", "zh": "花牌不算花，碰、槓照算。",
            "zh-Hans": "花牌不算花，碰、杠照算。"},
           {"off": ["flower"]}),
)


def presets_for(ruleset_id: str) -> list[dict]:
    """The presets of one rule set, as ``GET /api/rulesets`` lists them."""
    return [preset.describe() for preset in PRESETS if preset.ruleset == ruleset_id]
