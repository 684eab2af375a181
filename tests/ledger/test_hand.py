"""The hand model: validation (RULES.md §1–§2), readings (R1), concealed pungs (R2), waits (R4).

Tile counts: ``len(concealed) + 3 × len(melds) + 1 == 17``, so a hand has 16
concealed tiles with no meld, 13 with one, 10 with two, 7 with three.
"""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger import tiles
from ledger.errors import InvalidHand
from ledger.hand import Hand, _block_splits, _shape
from tests.ledger.helpers import chow, kong, pung

NO_MELD = "123m456m789m123p789s5p"  # 16 tiles, waits on the 5p pair


def one(text):
    return tiles.parse(text)[0]


def codes(found):
    return [tiles.code(t) for t in found]


def shape(reading):
    """A reading as comparable data: sorted (kind, first tile, melded, concealed) + pair + wait."""
    sets = sorted((g.kind, tiles.code(g.first), g.melded, g.concealed) for g in reading.sets)
    return sets, tiles.code(reading.pair.first), reading.wait


# ---- validation ----------------------------------------------------------------
@pytest.mark.parametrize("concealed, melds, win, flowers, field, words", [
    # unknown tiles, in each field
    ("123m456m789m123p789s0s", [], "5p", None, "hand.concealed", "unknown tile '0s'"),
    (NO_MELD, [], "8z", None, "hand.winning_tile", "unknown tile '8z'"),
    ("123m456m789m123p5p", [pung("000s")], "5p", None, "hand.melds[0].tiles", "unknown tile '0s'"),
    (NO_MELD, [], "5p", "9f", "hand.flowers", "unknown tile '9f'"),
    # a fifth copy: in the concealed tiles, with the winning tile, across a pung and a kong
    ("11111m23m456m789m123p", [], "5p", None, "hand", "5 copies of 1m (一萬); there are only four"),
    ("1111m23m456m789m123p5p", [], "1m", None, "hand", "5 copies of 1m"),
    ("11m456m789m123p5p9p", [pung("111m")], "5p", None, "hand", "5 copies of 1m"),
    ("123m456m789m5p", [kong("1111m"), chow("123p")], "5p", None, "hand", "5 copies of 1m"),
    ("123m456m789m5p", [kong("7777z", concealed=True), pung("777z")], "5p", None, "hand",
     "7 copies of 7z (中)"),
    # wrong tile count
    ("123m456m789m123p789s", [], "5p", None, "hand",
     "wrong tile count: 15 concealed + 3 × 0 melds + 1 winning tile = 16, expected 17"),
    ("123m456m789m123p789s555p", [], "5p", None, "hand", "= 19, expected 17"),
    ("123m456m789m123p55p", [pung("111s")], "5p", None, "hand",
     "14 concealed + 3 × 1 melds + 1 winning tile = 18, expected 17"),
    # melds that are not sets
    ("123m456m789m123p5p", [chow("124m")], "5p", None, "hand.melds[0]", "124m is not a chow"),
    ("123m456m789m123p5p", [chow("123z")], "5p", None, "hand.melds[0]", "123z is not a chow"),
    ("123m456m789m123p5p", [chow("891m")], "5p", None, "hand.melds[0]", "189m is not a chow"),
    ("123m456m789m123p5p", [chow("1m2p3s")], "5p", None, "hand.melds[0]", "1m2p3s is not a chow"),
    ("123m456m789m123p5p", [pung("112m")], "5p", None, "hand.melds[0]", "112m is not a pung"),
    ("123m456m789m123p5p", [pung("1m1p1s")], "5p", None, "hand.melds[0]", "is not a pung"),
    ("123m456m789m123p5p", [kong("1112m")], "5p", None, "hand.melds[0]", "1112m is not a kong"),
    ("123m456m789m123p5p", [kong("111m")], "5p", None, "hand.melds[0]", "a kong has 4 tiles, got 111m"),
    ("123m456m789m123p5p", [pung("1111m")], "5p", None, "hand.melds[0]",
     "a pung has 3 tiles, got 1111m"),
    ("123m456m789m123p5p", [{"kind": "pung", "tiles": "111m", "concealed": True}], "5p", None,
     "hand.melds[0]", "only a kong can be concealed"),
    ("123m456m789m123p5p", [{"kind": "pair", "tiles": "11m"}], "5p", None, "hand.melds[0]",
     "must be chow, pung or kong, not 'pair'"),
    ("123m456m789m123p5p", ["111m"], "5p", None, "hand.melds[0]", "expected an object"),
    # flowers where tiles belong, and tiles where flowers belong
    ("123m456m789m5p", [chow("123p"), pung("111f")], "5p", None, "hand.melds[1].tiles",
     "flower 春 belongs in hand.flowers"),
    ("123m456m789m123p789s1f", [], "5p", None, "hand.concealed", "flower 春 belongs in hand.flowers"),
    (NO_MELD, [], "梅", None, "hand.winning_tile", "flower 梅 belongs in hand.flowers"),
    (NO_MELD, [], "5p", "1f1m", "hand.flowers", "1m (一萬) is not a flower"),
    (NO_MELD, [], "5p", "1f2f春", "hand.flowers", "flower 春 appears 2 times; there is only one"),
    # the winning tile is one tile
    (NO_MELD, [], "5p6p", None, "hand.winning_tile", "expected exactly one tile, got 2"),
    (NO_MELD, [], "", None, "hand.winning_tile", "expected exactly one tile, got 0"),
])
def test_invalid_hands_name_field_and_problem(concealed, melds, win, flowers, field, words):
    with pytest.raises(InvalidHand) as caught:
        Hand.build(concealed, melds, win, flowers)
    assert caught.value.field == field
    assert caught.value.message.startswith(field)
    assert words in caught.value.message


def test_four_copies_across_concealed_winning_tile_and_melds_are_fine():
    hand = Hand.build("1m23m456m789m5p", [pung("111m"), chow("123p")], "5p")
    assert hand.all_tiles.count(one("1m")) == 4


def test_a_kong_counts_three_towards_the_tile_count():
    hand = Hand.build("123m456m789m5p", [kong("2222s"), kong("9999p", concealed=True)], "5p")
    assert len(hand.all_tiles) == 10 + 1 + 8


def test_shanghai_size_counts_fourteen():
    Hand.build("123m456m789m5p", [chow("123p")], "5p", size=14)
    with pytest.raises(InvalidHand, match="= 17, expected 14"):
        Hand.build("123m456m789m123p5p", [pung("111s")], "5p", size=14)


def test_flowers_are_outside_the_tile_count_and_kept_sorted():
    hand = Hand.build(NO_MELD, [], "5p", "梅夏")
    assert codes(hand.flowers) == ["2f", "5f"]


# ---- 門清 (R3) ---------------------------------------------------------------------
@pytest.mark.parametrize("concealed, melds, expected", [
    (NO_MELD, [], True),
    ("123m456m789m123p5p", [kong("2222s", concealed=True)], True),
    ("123m456m789m5p", [kong("2222s", concealed=True), kong("9999p", concealed=True)], True),
    ("123m456m789m123p5p", [kong("2222s")], False),
    ("123m456m789m123p5p", [pung("222s")], False),
    ("123m456m789m123p5p", [chow("234s")], False),
    ("123m456m789m5p", [kong("2222s", concealed=True), chow("345s")], False),
])
def test_concealed_hand_allows_only_concealed_kongs(concealed, melds, expected):
    assert Hand.build(concealed, melds, "5p").is_concealed is expected


# ---- readings (R1) -------------------------------------------------------------------
def test_111222333_reads_as_three_pungs_and_as_three_chows():
    hand = Hand.build("111222333m678p789s5p", [], "5p")
    found = sorted(shape(r) for r in hand.readings("discard"))
    pungs = ([("chow", "6p", False, True), ("chow", "7s", False, True), ("pung", "1m", False, True),
              ("pung", "2m", False, True), ("pung", "3m", False, True)], "5p", "single")
    chows = ([("chow", "1m", False, True)] * 3 + [("chow", "6p", False, True),
                                                 ("chow", "7s", False, True)], "5p", "single")
    assert found == sorted([pungs, chows])


def test_winning_tile_closed_in_one_chow_and_two_sided_in_another():
    # 4s5s6s + 5s6s7s: the 5s fills the middle of 456s or the open end of 567s.
    hand = Hand.build("123m456m789p55p45667s", [], "5s")
    assert sorted(r.wait for r in hand.readings("discard")) == ["closed", "two_sided"]
    sets = {tuple(sorted((g.kind, tiles.code(g.first)) for g in r.sets))
            for r in hand.readings("discard")}
    assert sets == {(("chow", "1m"), ("chow", "4m"), ("chow", "4s"), ("chow", "5s"), ("chow", "7p"))}


def test_winning_tile_on_the_pair_or_in_a_chow():
    # 5p5p6p7p + 5p: pair 55p with 567p, the 5p completing either.
    hand = Hand.build("123m456m789m123s5567p", [], "5p")
    assert sorted(r.wait for r in hand.readings("discard")) == ["single", "two_sided"]
    assert codes(hand.waits()) == ["5p", "8p"]


def test_a_hand_with_no_shape_has_no_reading():
    assert Hand.build("123m456m789m123p789s5p", [], "6p").readings("discard") == []


# ---- concealed pungs (R2) -------------------------------------------------------------------
def test_pung_completed_by_discard_is_exposed_by_self_draw_concealed():
    hand = Hand.build("123m456m789m123s55p99s", [], "5p")
    (on_discard,) = hand.readings("discard")
    (on_draw,) = hand.readings("self_draw")
    (robbed,) = hand.readings("robbing_kong")
    assert on_discard.wait == on_draw.wait == "dual_pung"
    assert [g.concealed for g in on_discard.sets if g.kind == "pung"] == [False]
    assert [g.concealed for g in robbed.sets if g.kind == "pung"] == [False]
    assert [g.concealed for g in on_draw.sets if g.kind == "pung"] == [True]


def test_untouched_concealed_pung_stays_concealed_on_a_discard():
    hand = Hand.build("123m456m789m555s12p99s", [], "3p")
    (reading,) = hand.readings("discard")
    assert [(tiles.code(g.first), g.concealed) for g in reading.sets if g.kind == "pung"] == [("5s", True)]


def test_melds_are_exposed_except_a_concealed_kong():
    hand = Hand.build("123m5p", [pung("222s"), kong("3333p"), kong("7777z", concealed=True),
                                 chow("789m")], "5p")
    (reading,) = hand.readings("self_draw")
    melded = sorted((g.kind, tiles.code(g.first), g.concealed) for g in reading.sets if g.melded)
    assert melded == [("chow", "7m", False), ("kong", "3p", False), ("kong", "7z", True),
                      ("pung", "2s", False)]


# ---- waits (R4) and wait shapes ----------------------------------------------------------
@pytest.mark.parametrize("concealed, melds, win, waits", [
    ("123m456m789p234s56s55p", [], "7s", ["1s", "4s", "7s"]),
    ("1112345678999m", [chow("123p")], "5m", ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]),
    ("123m456m789m123s55p99s", [], "5p", ["5p", "9s"]),
    ("123m456m789m123p789s5p", [], "5p", ["5p"]),
    ("123m456m789m123s1p3p99s", [], "2p", ["2p"]),
    # the hand holds all four 1m: three in the pung, one in 123m -> 1m is left out
    ("123m23m99s", [pung("111m"), chow("456p"), chow("789p")], "4m", ["4m"]),
    # the same shape with the pung elsewhere: 1m is a wait again
    ("123m23m99s", [pung("111s"), chow("456p"), chow("789p")], "4m", ["1m", "4m"]),
    # 5p all in a kong: 67p waits only on 8p
    ("345m99s67p", [kong("2222m"), kong("5555p"), kong("8888s")], "8p", ["8p"]),
    ("345m99s67p", [kong("2222m"), kong("5555s"), kong("8888s")], "8p", ["5p", "8p"]),
    # four 1m in the concealed tiles: 11112m waits on 3m only (1m would be a fifth)
    ("11112m789s99p", [pung("555s"), chow("456p")], "3m", ["3m"]),
])
def test_waits_leave_out_kinds_held_four_times(concealed, melds, win, waits):
    assert codes(Hand.build(concealed, melds, win).waits()) == waits


@pytest.mark.parametrize("concealed, win, wait", [
    ("123m456m789m123s45p99s", "6p", "two_sided"),
    ("123m456m789m123s45p99s", "3p", "two_sided"),
    ("123m456m789m123s12p99s", "3p", "edge"),
    ("123m456m789m123s89p99s", "7p", "edge"),
    ("123m456m789m123s46p99s", "5p", "closed"),
    ("123m456m789m123s789p9s", "9s", "single"),
    ("123m456m789m123s99p55s", "9p", "dual_pung"),
])
def test_wait_shapes(concealed, win, wait):
    assert [r.wait for r in Hand.build(concealed, [], win).readings("discard")] == [wait]


@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda counts: sum(counts) <= 17),
       st.booleans())
def test_the_shape_table_agrees_with_listing_the_splits(counts, suited):
    """The waits look a suit's shape up in a table; the readings list every split: both must agree.

    Up to 17 tiles in the block: 5 sets and a pair, the most a hand holds.
    """
    block = tuple(counts) if suited else tuple(counts[:7])
    splits = _block_splits(block, 0, suited)
    expected = None if not splits else 0 if splits[0][0] is None else 1
    assert _shape(block, suited) == expected


@pytest.mark.parametrize("block, shape", [
    ((0,) * 9, 0),
    ((1, 1, 1, 0, 0, 0, 0, 0, 0), 0),
    ((4, 4, 4, 2, 0, 0, 0, 0, 0), 1),          # 111 222 333 123 + 44
    ((3, 3, 3, 3, 3, 1, 1, 0, 0), 1),          # 111 222 333 444 567 + 55: 17 tiles, the most
    ((3, 1, 1, 1, 1, 1, 1, 1, 3), None),       # 九蓮寶燈 1112345678999: waiting, 13 tiles
    ((3, 1, 1, 1, 2, 1, 1, 1, 3), 1),          # … + 5: 111 234 678 999 + 55
    ((1, 1, 0, 0, 0, 0, 0, 0, 0), None),
    ((2, 2, 0, 0, 0, 0, 0, 0, 0), None),
    ((4, 0, 0, 0, 0, 0, 0, 0, 0), None),
])
def test_suit_shapes_worked_by_hand(block, shape):
    assert _shape(block, True) == shape


@pytest.mark.parametrize("block, shape", [
    ((0,) * 7, 0),
    ((3, 3, 0, 0, 2, 0, 0), 1),                # 東東東 南南南 + 白白
    ((3, 0, 0, 0, 3, 3, 3), 0),                # 東 pung and the three dragons
    ((2, 2, 0, 0, 0, 0, 0), None),             # two pairs
    ((1, 0, 0, 0, 0, 0, 0), None),             # a lone honour: honours make no chows
    ((4, 0, 0, 0, 0, 0, 0), None),             # four of a kind is a kong, declared in melds
])
def test_honour_shapes_worked_by_hand(block, shape):
    assert _shape(block, False) == shape
