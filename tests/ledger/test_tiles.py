"""Tile notation (RULES.md §1): compact strings, lists, Chinese names, canonical form.

Tile indices follow ledger/tiles.py: 1m–9m 0–8, 1p–9p 9–17, 1s–9s 18–26,
東南西北白發中 27–33, 春夏秋冬梅蘭菊竹 34–41.
"""
import pytest

from ledger import tiles
from ledger.errors import InvalidHand


@pytest.mark.parametrize("text, expected", [
    ("123m456p11z", [0, 1, 2, 12, 13, 14, 27, 27]),
    ("9m1p9s7z", [8, 9, 26, 33]),
    ("1234f", [34, 35, 36, 37]),
    ("5678f", [38, 39, 40, 41]),
    ("19m 19p, 19s", [0, 8, 9, 17, 18, 26]),
    ("19m  19p", [0, 8, 9, 17]),  # two spaces: not the compact form, read the slow way to the same tiles
    ("", []),
])
def test_compact_strings(text, expected):
    assert tiles.parse(text) == expected


def test_a_group_met_again_gives_its_tiles_in_written_order():
    # 9m 5m 1m are tiles 8 4 0; 2z (南) is 28. The second string reuses the
    # groups of the first (remembered per group), in another order and with a space.
    assert tiles.parse("951m22z") == [8, 4, 0, 28, 28]
    assert tiles.parse("22z 951m") == [28, 28, 8, 4, 0]
    assert tiles.parse("22z951m22z") == [28, 28, 8, 4, 0, 28, 28]


def test_a_list_of_tile_strings_may_mix_notations():
    assert tiles.parse(["1m", "2p", "東", "五萬", "11z"]) == [0, 10, 27, 4, 27, 27]


@pytest.mark.parametrize("text, expected", [
    ("東", 27), ("南", 28), ("西", 29), ("北", 30),
    ("白", 31), ("白板", 31), ("發", 32), ("發財", 32), ("中", 33), ("紅中", 33),
    ("五萬", 4), ("一萬", 0), ("九萬", 8), ("3筒", 11), ("三筒", 11), ("7條", 24), ("七條", 24),
    ("梅", 38), ("春", 34), ("竹", 41),
])
def test_chinese_names(text, expected):
    assert tiles.parse(text) == [expected]


def test_mixed_chinese_and_compact_in_one_string():
    assert tiles.parse("東 中 五萬 3筒 7條 梅 12m") == [27, 33, 4, 11, 24, 38, 0, 1]


@pytest.mark.parametrize("text, canonical", [
    ("東 五萬 3筒 7條 梅 中", "5m3p7s17z5f"),
    ("11z321m", "123m11z"),
    ("9s1s5p5m", "5m5p19s"),
    (["發財", "紅中", "白板"], "567z"),
    ("8f1f", "18f"),
])
def test_canonical_form_sorts_and_groups_by_suit(text, canonical):
    assert tiles.to_compact(tiles.parse(text)) == canonical
    assert tiles.to_compact(tiles.parse(canonical)) == canonical


def test_names_are_chinese():
    assert tiles.names(tiles.parse("1m9p5s1z5z6z7z1f8f")) == [
        "一萬", "九筒", "五條", "東", "白", "發", "中", "春", "竹"]


@pytest.mark.parametrize("text, words", [
    ("0m", "unknown tile '0m'"),
    ("8z", "unknown tile '8z'"),
    ("123m18z5p", "unknown tile '8z'"),  # valid groups around a bad one: the whole string is refused
    ("9f", "unknown tile '9f'"),
    ("X", "unknown tile 'X'"),
    ("123", "numbers '123' have no suit"),
    ("12m3", "numbers '3' have no suit"),
    ("m", "suit letter 'm' has no numbers"),
    ("十萬", "unknown tile"),
])
def test_unknown_tiles_name_the_field_and_the_text(text, words):
    with pytest.raises(InvalidHand) as caught:
        tiles.parse(text, "hand.concealed")
    assert caught.value.field == "hand.concealed"
    assert caught.value.message.startswith("hand.concealed: ")
    assert words in caught.value.message


def test_a_list_item_that_is_not_a_string_is_refused():
    with pytest.raises(InvalidHand) as caught:
        tiles.parse(["1m", 5], "hand.flowers")
    assert caught.value.field == "hand.flowers"
    assert "unknown tile 5" in caught.value.message


def test_flower_winds_follow_r7():
    by_flower = {tiles.name(f): tiles.name(tiles.flower_wind(f)) for f in tiles.FLOWERS}
    assert by_flower == {"春": "東", "夏": "南", "秋": "西", "冬": "北",
                         "梅": "東", "蘭": "南", "菊": "西", "竹": "北"}
