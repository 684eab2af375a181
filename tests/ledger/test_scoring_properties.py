"""Properties of the Taiwanese scoring engine over random legal winning hands (hypothesis).

Hands come from :func:`tests.ledger.strategies.winning_hands`: sets + pair
built with at most four copies of a tile, random melds (concealed kongs
included), flowers, winds and win flags, the winning tile taken from the hand.
"""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import tiles
from ledger.errors import LedgerError
from ledger.hand import Hand
from ledger.rules import get_ruleset, score
from ledger.scoring import Context, parse_win
from ledger.scoring import _score_reading as score_reading
from tests.fuzzing import examples
from tests.ledger.strategies import seats, winning_hands

TAIWANESE = st.sampled_from(("taiwan", "taiwan_zz"))
OPTIONS = st.fixed_dictionaries({}, optional={"see_flower_see_word": st.booleans()})
#: RULES.md R8 (and §5): a pattern on the left never shows beside one on the right.
REPLACES = {
    "concealed_self_draw": {"concealed", "self_draw"},
    "five_concealed_pungs": {"four_concealed_pungs", "three_concealed_pungs"},
    "four_concealed_pungs": {"three_concealed_pungs"},
    "big_three_dragons": {"dragon_pung"},
    "small_three_dragons": {"dragon_pung"},
    "big_four_winds": {"seat_wind", "round_wind", "hand_wind", "any_wind_pung", "small_four_winds"},
    "small_four_winds": {"seat_wind", "round_wind", "hand_wind", "any_wind_pung"},
    "four_kongs": {"three_kongs"},
    "twice_pure_double_chow": {"pure_double_chow"},
    "all_terminals": {"all_terminals_and_honors"},
    "heavenly_ready": {"declared_ready", "earthly_ready"},
    "earthly_ready": {"declared_ready"},
}
HEAVEN_EARTH = {"concealed", "self_draw", "concealed_self_draw", "single_wait", "declared_ready",
                "heavenly_ready", "earthly_ready"}
REPLACES["heavenly_win"] = REPLACES["earthly_win"] = HEAVEN_EARTH

PROPERTY = settings(max_examples=examples(bounded=37, deep=150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def options_for(ruleset_id, options):
    return options if ruleset_id == "taiwan_zz" else {}


def breakdown(result):
    return sorted((p.id, p.value) for p in result.patterns)


@PROPERTY
@given(TAIWANESE, winning_hands(), seats(), OPTIONS)
def test_random_hands_score_and_total_is_the_sum(ruleset_id, drawn, winds, options):
    hand, win = drawn
    result = score(ruleset_id, hand, win, options=options_for(ruleset_id, options), **winds)
    assert result.total == sum(p.value for p in result.patterns)
    assert all(type(p.value) is int and p.value >= 0 for p in result.patterns)
    assert result.to_dict()["total"] == result.total
    ids = [p.id for p in result.patterns]
    assert len(ids) == len(set(ids))
    for higher, lower in REPLACES.items():
        if higher in ids:
            assert not lower & set(ids), (higher, ids)
    if ruleset_id == "taiwan_zz":
        assert ids, "屁胡 keeps the breakdown non-empty"
        assert ("no_points" in ids) == (ids == ["no_points"])


@PROPERTY
@given(TAIWANESE, winning_hands(), seats(), st.randoms(use_true_random=False))
def test_order_and_notation_do_not_change_the_result(ruleset_id, drawn, winds, rnd):
    hand, win = drawn
    expected = score(ruleset_id, hand, win, **winds)
    for variant in notations(hand, rnd):
        result = score(ruleset_id, variant, win, **winds)
        assert breakdown(result) == breakdown(expected), variant
        assert result.total == expected.total
        assert result.waits == expected.waits


def notations(hand, rnd: random.Random):
    """The same hand shuffled, as lists of codes, as Chinese names, with melds reordered."""
    def shuffled(text):
        parsed = tiles.codes(tiles.parse(text))
        rnd.shuffle(parsed)
        return parsed

    melds = [dict(m, tiles=shuffled(m["tiles"])) for m in hand["melds"]]
    rnd.shuffle(melds)
    yield dict(hand, concealed=shuffled(hand["concealed"]), melds=melds,
               flowers=shuffled(hand["flowers"]))
    yield dict(hand, concealed="".join(tiles.names(tiles.parse(hand["concealed"]))),
               winning_tile=tiles.name(tiles.parse(hand["winning_tile"])[0]),
               flowers="".join(tiles.names(tiles.parse(hand["flowers"]))),
               melds=[dict(m, tiles="".join(tiles.names(tiles.parse(m["tiles"])))) for m in melds])
    yield dict(hand, concealed=tiles.names(tiles.parse(shuffled(hand["concealed"]))),
               flowers=tiles.names(tiles.parse(hand["flowers"])),
               melds=[dict(m, tiles=tiles.names(tiles.parse(m["tiles"]))) for m in reversed(melds)])


@PROPERTY
@given(TAIWANESE, winning_hands(), seats())
def test_waits_are_exactly_the_completing_tiles(ruleset_id, drawn, winds):
    """R4: a wait completes the 16 tiles before the win; no other tile (of which < 4 are held) does."""
    hand, win = drawn
    result = score(ruleset_id, hand, win, **winds)
    waits = set(result.waits)
    assert tiles.parse(hand["winning_tile"])[0] in waits
    before = Hand.build(hand["concealed"], hand["melds"], hand["winning_tile"])
    held = list(before.all_tiles)
    held.remove(before.winning_tile)
    for tile in range(tiles.KINDS):
        if held.count(tile) >= 4:
            assert tile not in waits
            continue
        completed = Hand.build(hand["concealed"], hand["melds"], tiles.code(tile))
        assert bool(completed.readings("discard")) == (tile in waits), tiles.code(tile)


@PROPERTY
@given(TAIWANESE, winning_hands(), seats(), OPTIONS)
def test_the_best_reading_wins(ruleset_id, drawn, winds, options):
    """R1: no reading of the hand scores more than the reported result."""
    hand, win = drawn
    options = options_for(ruleset_id, options)
    result = score(ruleset_id, hand, win, options=options, **winds)
    ruleset = get_ruleset(ruleset_id)
    built = Hand.build(hand["concealed"], hand["melds"], hand["winning_tile"], hand["flowers"])
    parsed_win = parse_win(win, ruleset)
    wind_tiles = {"seat": tiles.wind_tile(winds["seat_wind"]), "round": tiles.wind_tile(winds["round_wind"]),
                  "hand": tiles.wind_tile(winds["hand_wind"])}
    parsed_options = ruleset.parse_options(options)
    totals = [score_reading(ruleset, ruleset.checks(parsed_options),
                            Context(built, reading, parsed_win, wind_tiles, winds["seat_wind"] == "E",
                                    parsed_options, built.flowers)).score().total
              for reading in built.readings(parsed_win.by)]
    assert totals and result.total == max(totals)


@PROPERTY
@given(winning_hands(), seats(), st.sampled_from(("heavenly_win", "earthly_win", "heavenly_ready",
                                                   "earthly_ready")))
def test_zz_events_replace_the_ready_and_self_draw_patterns(drawn, winds, event):
    hand, win = drawn
    winds["seat_wind"] = "E" if event.startswith("heavenly") else "S"
    if event == "heavenly_win":
        win = dict(win, by="self_draw")
    plain = score("taiwan_zz", hand, win, **winds)
    flagged = score("taiwan_zz", hand, dict(win, event=event), **winds)
    gone = HEAVEN_EARTH if event.endswith("win") else {"declared_ready", "earthly_ready"}
    value = {"heavenly_win": 24, "earthly_win": 16, "heavenly_ready": 8, "earthly_ready": 4}[event]
    kept = [(i, v) for i, v in breakdown(plain) if i not in gone and i != "no_points"]
    assert breakdown(flagged) == sorted(kept + [(event, value)])


# ---- predicates that declare what they need ---------------------------------------
ALL_RULESETS = ("taiwan", "taiwan_zz", "shanghai")


@PROPERTY
@given(winning_hands(), winning_hands(ruleset_size=14), seats(), st.booleans(), st.booleans())
def test_a_pattern_never_counts_for_a_hand_without_what_it_needs(drawn17, drawn14, winds, plain_win,
                                                                 no_flowers):
    """``needs(...)`` lets the engine skip a predicate; it must be 0 for every hand (or reading) lacking the feature."""
    lacking = 0
    for ruleset_id in ALL_RULESETS:
        ruleset = get_ruleset(ruleset_id)
        hand, win = drawn14 if ruleset.hand_size == 14 else drawn17
        if plain_win:
            win = {"by": win["by"]}
        if no_flowers:
            hand = dict(hand, flowers="")
        built = Hand.build(hand["concealed"], hand["melds"], hand["winning_tile"], hand["flowers"],
                           size=ruleset.hand_size)
        parsed_win = parse_win(win, ruleset)
        present = {"honours": built.has_honor, "flowers": bool(built.flowers), "flagged": parsed_win.flagged}
        wind_tiles = {key: tiles.wind_tile(winds[f"{key}_wind"]) for key in ("seat", "round", "hand")}
        for options in ({}, {"see_flower_see_word": True}) if ruleset_id == "taiwan_zz" else ({},):
            for reading in built.readings(parsed_win.by):
                ctx = Context(built, reading, parsed_win, wind_tiles, winds["seat_wind"] == "E",
                              ruleset.parse_options(options), built.flowers)
                kinds = [group.kind for group in reading.sets]
                present["pungs"] = len(kinds) - kinds.count("chow") >= 3
                present["chows"] = kinds.count("chow") >= 3
                for pattern in ruleset.patterns:
                    if pattern.needs is not None and not present[pattern.needs]:
                        lacking += 1
                        assert not pattern.count(ctx), (ruleset_id, pattern.id)
    assert lacking or (built.has_honor and built.flowers and parsed_win.flagged)


def test_the_declared_needs_are_the_ones_worked_out_from_the_rules():
    """Which patterns the engine may skip: those of honours, of flowers and of flags (R9); of three pungs, of three chows."""
    declared = {(r, p.id): p.needs for r in ALL_RULESETS for p in get_ruleset(r).patterns if p.needs}
    honours = {"seat_wind", "round_wind", "hand_wind", "dragon_pung", "outside_hand", "small_three_dragons",
               "all_terminals_and_honors", "half_flush", "small_four_winds", "big_three_dragons",
               "big_four_winds", "all_honors", "any_wind_pung"}
    flowers = {"seat_flower", "flower_set", "any_flower", "flower"}
    flags = {"declared_ready", "after_kong", "last_tile_discard", "last_tile_draw", "heavenly_win",
             "earthly_win", "heavenly_ready", "earthly_ready", "eight_flowers", "seven_flowers_rob"}
    shanghai_honours = {"all_honors", "all_honors_any", "half_flush_pungs", "half_flush", "wind_pung",
                        "dragon_pung"}
    # 三槓子/四槓子, 三/四/五暗刻, 三色同刻, 碰碰胡 and 清老頭 (pungs only) need three pungs or kongs;
    # 三色同順, 一條龍, 二盃口 (four chows) and 平胡 (chows only) three chows.
    pungs = {"three_kongs", "four_kongs", "three_concealed_pungs", "four_concealed_pungs",
             "five_concealed_pungs", "triple_pung", "all_pungs", "all_terminals"}
    chows = {"mixed_triple_chow", "pure_straight", "twice_pure_double_chow", "all_chows"}
    expected = {}
    for r in ALL_RULESETS:
        for p in get_ruleset(r).patterns:
            if r == "shanghai" and p.id in shanghai_honours:
                expected[r, p.id] = "honours"
            elif r != "shanghai" and p.id in honours:
                expected[r, p.id] = "honours"
            elif p.id in flowers:
                expected[r, p.id] = "flowers"
            elif p.id in flags:
                expected[r, p.id] = "flagged"
            elif p.id in pungs:
                expected[r, p.id] = "pungs"
            elif p.id in chows:
                expected[r, p.id] = "chows"
    assert declared == expected


# ---- session options ----------------------------------------------------------------
EVERY_OPTION = [option for r in ALL_RULESETS for option in get_ruleset(r).options]
OPTION_VALUES = (st.none() | st.booleans() | st.integers(-3, 30) | st.floats(-3, 30) | st.text(max_size=3)
                 | st.lists(st.integers(), max_size=2))


@settings(max_examples=examples(bounded=75, deep=300), deadline=None)
@given(st.sampled_from(EVERY_OPTION), OPTION_VALUES)
def test_an_option_takes_exactly_the_values_of_its_type(option, value):
    """A bool option takes true or false; an int option a whole number (not a bool) ≥ its minimum; null if nullable.

    ``Option.parse`` answers the usual value (of the exact type) first: this
    holds it to the rule for every other value too.
    """
    if option.kind is bool:
        allowed = type(value) is bool
    else:
        allowed = type(value) is int and value >= option.minimum
    allowed = allowed or (value is None and option.nullable)
    try:
        parsed = option.parse(value)
    except LedgerError as error:
        assert not allowed, (option.id, value)
        assert error.field == f"options.{option.id}"
        return
    assert allowed, (option.id, value)
    assert parsed is value


# ---- garbage in: only LedgerError comes out --------------------------------------
TILE_TEXT = st.text(alphabet="0123456789mpszf 東南中白發萬筒條梅竹,", max_size=40)
JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=True) | TILE_TEXT
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=4),
                    max_leaves=12)
MELD = st.fixed_dictionaries({"kind": st.sampled_from(("chow", "pung", "kong")) | JSON, "tiles": JSON},
                             optional={"concealed": JSON})
#: Valid pieces, so that garbage elsewhere is reached past the first check.
CONCEALED = st.sampled_from(("567m345p888s67s99p", "567m345p67s99p", "1s", "123m"))
HAND = JSON | st.fixed_dictionaries({}, optional={
    "concealed": CONCEALED | JSON | TILE_TEXT, "winning_tile": st.sampled_from(("5s", "1s")) | JSON | TILE_TEXT,
    "melds": JSON | st.lists(MELD | st.just({"kind": "chow", "tiles": "234m"}), max_size=6),
    "flowers": JSON | TILE_TEXT})
WIN = JSON | st.fixed_dictionaries({}, optional={
    "by": JSON | st.sampled_from(("discard", "self_draw", "robbing_kong")),
    "event": JSON | st.sampled_from(("eight_flowers", "seven_flowers_rob", "heavenly_win")),
    "after_kong": JSON, "last_tile": JSON, "declared_ready": JSON})


@settings(max_examples=examples(bounded=100, deep=400), deadline=None)
@given(TAIWANESE | JSON, HAND, WIN, st.dictionaries(st.sampled_from(("seat_wind", "round_wind", "hand_wind",
                                                                      "dealer", "options")), JSON))
def test_garbage_raises_only_ledger_errors(ruleset_id, hand, win, keywords):
    try:
        result = score(ruleset_id, hand, win, **keywords)
    except LedgerError as error:
        assert error.message
        return
    assert result.total == sum(p.value for p in result.patterns)
