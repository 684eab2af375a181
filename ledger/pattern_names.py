"""Pattern names (番種/台數名稱) per language: one table for 简体中文, one for English.

繁體中文 names are the rule sets' own (``ledger.rules``): the seeds' words.
The other languages are written out, not converted character by character:
mainland players say 平和 for 平胡, 一般高 for 一盃口, 碰碰和 for 碰碰胡, 全求人 for
全求, while a Shanghai table keeps its own 碰碰胡 and 杠开. A table holds the
name by pattern id (``COMMON``), and where one rule set words a pattern its
own way, that rule set's name (``BY_RULESET``), as the rule sets themselves
do (門清一摸三 at a taiwan table, 門清自摸 at a taiwan_zz one).

English names gloss the Chinese one, which stays alongside in brackets: at
the table the patterns are called by their Chinese names.

>>> pattern_name("taiwan", "all_chows", "zh-Hans"), pattern_name("shanghai", "all_pungs", "zh-Hans")
('平和', '碰碰胡')
>>> [pattern_name(ruleset, "concealed_self_draw", "zh-Hant") for ruleset in ("taiwan", "taiwan_zz")]
['門清一摸三', '門清自摸']
>>> pattern_name("taiwan", "all_chows", "en")
'all chows (平胡)'
"""
from __future__ import annotations

from functools import cache

from ledger.house_rules import switchable
from ledger.rules import get_ruleset

TRADITIONAL, SIMPLIFIED, ENGLISH = "zh-Hant", "zh-Hans", "en"

COMMON = {
    SIMPLIFIED: {
        "concealed": "门清", "self_draw": "自摸", "concealed_self_draw": "门清自摸", "seat_flower": "花牌",
        "flower_set": "花杠", "seat_wind": "门风", "round_wind": "圈风", "hand_wind": "风牌",
        "declared_ready": "听牌", "all_simples": "断幺九", "dragon_pung": "三元牌", "after_kong": "杠上开花",
        "last_tile_discard": "海底捞鱼", "last_tile_draw": "海底捞月", "mixed_triple_chow": "三色三同顺",
        "pure_double_chow": "一般高", "pure_straight": "清龙", "outside_hand": "全带幺", "three_kongs": "三杠",
        "three_concealed_pungs": "三暗刻", "triple_pung": "三同刻", "twice_pure_double_chow": "二杯口",
        "all_chows": "平和", "all_melded": "全求人", "all_pungs": "碰碰和", "small_three_dragons": "小三元",
        "all_terminals_and_honors": "混幺九", "pure_outside_hand": "纯全带幺", "half_flush": "混一色",
        "four_concealed_pungs": "四暗刻", "four_kongs": "四杠", "small_four_winds": "小四喜",
        "big_three_dragons": "大三元", "full_flush": "清一色", "five_concealed_pungs": "五暗刻",
        "all_terminals": "清幺九", "big_four_winds": "大四喜", "all_honors": "字一色", "heavenly_win": "天胡",
        "earthly_win": "地胡", "no_points": "屁胡", "single_wait": "独听", "eight_flowers": "八仙过海",
        "seven_flowers_rob": "七抢一", "robbing_kong": "抢杠", "earthly_ready": "地听", "heavenly_ready": "天听",
        "exposed_kong": "明杠", "concealed_kong": "暗杠", "any_flower": "见花", "any_wind_pung": "见字",
        "no_honors_no_flowers": "无字无花", "all_honors_any": "乱风向", "full_flush_pungs": "清碰",
        "half_flush_pungs": "混碰", "big_hanging": "大吊车", "flower": "花牌", "wind_pung": "风向碰/风暗刻",
        "wind_exposed_kong": "风向明杠", "wind_concealed_kong": "风向暗杠", "dragon_exposed_kong": "字牌明杠",
        "dragon_concealed_kong": "字牌暗杠", "half_melded": "半求",
    },
    ENGLISH: {
        "concealed": "concealed hand", "self_draw": "self-draw", "concealed_self_draw": "concealed self-draw",
        "seat_flower": "seat flower", "flower_set": "flower set", "seat_wind": "seat wind",
        "round_wind": "round wind", "hand_wind": "wind of the hand", "declared_ready": "declared ready",
        "all_simples": "all simples", "dragon_pung": "dragon pung", "after_kong": "win on a kong's replacement",
        "last_tile_discard": "win on the last discard", "last_tile_draw": "win on the last tile",
        "mixed_triple_chow": "mixed triple chow", "pure_double_chow": "pure double chow",
        "pure_straight": "pure straight", "outside_hand": "outside hand", "three_kongs": "three kongs",
        "three_concealed_pungs": "three concealed pungs", "triple_pung": "triple pung",
        "twice_pure_double_chow": "twice pure double chow", "all_chows": "all chows", "all_melded": "all melded",
        "all_pungs": "all pungs", "small_three_dragons": "little three dragons",
        "all_terminals_and_honors": "all terminals and honours", "pure_outside_hand": "pure outside hand",
        "half_flush": "half flush", "four_concealed_pungs": "four concealed pungs", "four_kongs": "four kongs",
        "small_four_winds": "little four winds", "big_three_dragons": "big three dragons",
        "full_flush": "full flush", "five_concealed_pungs": "five concealed pungs",
        "all_terminals": "all terminals", "big_four_winds": "big four winds", "all_honors": "all honours",
        "heavenly_win": "heavenly hand", "earthly_win": "earthly hand", "no_points": "no-points hand",
        "single_wait": "single wait", "eight_flowers": "all eight flowers",
        "seven_flowers_rob": "seven flowers rob the eighth", "robbing_kong": "robbing a kong",
        "earthly_ready": "earthly ready", "heavenly_ready": "heavenly ready", "exposed_kong": "exposed kong",
        "concealed_kong": "concealed kong", "any_flower": "any flower", "any_wind_pung": "any wind pung",
        "no_honors_no_flowers": "no honours, no flowers", "all_honors_any": "all honours, any shape",
        "full_flush_pungs": "full flush of pungs", "half_flush_pungs": "half flush of pungs",
        "big_hanging": "all melded, single wait", "flower": "flower", "wind_pung": "wind pung",
        "wind_exposed_kong": "wind exposed kong", "wind_concealed_kong": "wind concealed kong",
        "dragon_exposed_kong": "dragon exposed kong", "dragon_concealed_kong": "dragon concealed kong",
        "half_melded": "half melded",
    },
}
BY_RULESET = {
    SIMPLIFIED: {
        "taiwan": {"concealed_self_draw": "门清一摸三", "round_wind": "风圈", "declared_ready": "立直",
                   "dragon_pung": "三元台"},
        "taiwan_zz": {"last_tile_discard": "河底捞鱼"},
        "shanghai": {"dragon_pung": "字牌碰/字暗刻", "after_kong": "杠开", "eight_flowers": "八花",
                     "all_pungs": "碰碰胡"},
    },
    ENGLISH: {
        "taiwan": {"concealed_self_draw": "concealed self-draw, one takes three"},
        "taiwan_zz": {"last_tile_discard": "win on the last discard, from the river"},
        "shanghai": {"eight_flowers": "eight flowers"},
    },
}


def pattern_ids(ruleset: str) -> tuple[str, ...]:
    """Every pattern a session of `ruleset` may score: its own, and those house rules may switch on."""
    return tuple(p.id for p in get_ruleset(ruleset).patterns + switchable(ruleset))


def pattern_name(ruleset: str, pattern_id: str, lang: str) -> str:
    """The name of pattern `pattern_id` at a `ruleset` table, in `lang` (繁體中文 for any other)."""
    return pattern_names(ruleset, lang).get(pattern_id, pattern_id)


@cache
def pattern_names(ruleset: str, lang: str) -> dict[str, str]:
    """Pattern id -> name at a `ruleset` table, in `lang`."""
    own = {p.id: p.name for p in get_ruleset(ruleset).patterns + switchable(ruleset)}
    if lang not in COMMON:
        return own
    names = {**COMMON[lang], **BY_RULESET[lang].get(ruleset, {})}
    if lang == ENGLISH:
        return {pattern_id: f"{names[pattern_id]} ({name})" for pattern_id, name in own.items()}
    return {pattern_id: names[pattern_id] for pattern_id in own}
