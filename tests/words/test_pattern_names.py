"""Pattern names in 繁體中文, 简体中文 and English: one per pattern of every rule set, written per language."""
import pytest

from ledger.house_rules import scorable
from ledger.rules import RULESETS
from words import pattern_name


def pattern_ids(ruleset: str) -> tuple[str, ...]:
    """Every pattern a session of `ruleset` may score: its own, and those house rules may switch on."""
    return tuple(pattern.id for pattern in scorable(ruleset))


def pattern_names(ruleset: str, lang: str) -> dict[str, str]:
    """Pattern id -> name at a `ruleset` table, in `lang`."""
    return {pattern_id: pattern_name(ruleset, pattern_id, lang) for pattern_id in pattern_ids(ruleset)}

LANGUAGES = ("zh-Hant", "zh-Hans", "en")
TRADITIONAL_ONLY = set("門槓風聽斷盃條龍頭純獨搶見無車開撈魚連莊對雙樂後發")


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_pattern_has_a_name_in_each_language(ruleset):
    ids = pattern_ids(ruleset)
    assert len(ids) > 20
    for lang in LANGUAGES:
        names = pattern_names(ruleset, lang)
        assert set(names) == set(ids), lang
        assert all(name and name != pattern_id for pattern_id, name in names.items()), lang


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_simplified_names_are_written_in_simplified_characters(ruleset):
    for pattern_id, name in pattern_names(ruleset, "zh-Hans").items():
        assert not TRADITIONAL_ONLY & set(name), (pattern_id, name)


@pytest.mark.parametrize("ruleset, pattern_id, traditional, simplified", [
    ("taiwan", "all_chows", "平胡", "平和"),  # the mainland word, not the same word in other characters
    ("taiwan", "pure_double_chow", "一盃口", "一般高"),
    ("taiwan", "all_melded", "全求", "全求人"),
    ("taiwan", "all_pungs", "碰碰胡", "碰碰和"),
    ("shanghai", "all_pungs", "碰碰胡", "碰碰胡"),  # a Shanghai table says 碰碰胡 in either script
    ("taiwan", "all_simples", "斷么九", "断幺九"),
    ("taiwan", "concealed_self_draw", "門清一摸三", "门清一摸三"),
    ("taiwan_zz", "concealed_self_draw", "門清自摸", "门清自摸"),
    ("shanghai", "after_kong", "槓開", "杠开"),
    ("taiwan", "after_kong", "槓上開花", "杠上开花"),
])
def test_hand_picked_names(ruleset, pattern_id, traditional, simplified):
    assert pattern_name(ruleset, pattern_id, "zh-Hant") == traditional
    assert pattern_name(ruleset, pattern_id, "zh-Hans") == simplified


def test_english_glosses_keep_the_chinese_name():
    assert pattern_name("taiwan", "pure_double_chow", "en") == "pure double chow (一盃口)"
    assert pattern_name("shanghai", "eight_flowers", "en") == "eight flowers (八花)"
    assert pattern_name("taiwan_zz", "eight_flowers", "en") == "all eight flowers (八仙過海)"
