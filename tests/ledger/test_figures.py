"""Group statistics from stored hand results (`ledger.figures`): worked cases and properties.

Each worked case records a short evening through `ledger.recorder.Recorder`
(what the API stores) and checks the figures against amounts worked out by
hand from RULES.md §6–§8; the arithmetic is in the comments.
"""
import dataclasses
import datetime
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.figures import (
    ROW_TALLIES,
    RecordedEvening,
    EveningRef,
    Figures,
    evening_figures,
    member_page,
    standing_row,
    standings,
    total,
)
from ledger.recorder import HAND, SEAT, Event, Recorder
from tests.fuzzing import examples

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
TAIWAN = {"base": 50, "per_tai": 10}
DAY = datetime.date(2026, 11, 27)
ALL_CHOWS = {"concealed": "123m456m789p234s56s55p", "melds": [], "winning_tile": "7s"}


def evening(ruleset, events, stakes=TAIWAN, options=None, key="s1", day=DAY):
    """Record `events` ((kind, body) or (kind, body, void)) and return the stored evening."""
    events = [Event(e[0], e[1], e[2] if len(e) > 2 else False) for e in events]
    numbered, number = [], 0
    for event in events:
        number += event.kind == HAND
        numbered.append(event._replace(number=number if event.kind == HAND else None))
    recorder, results = Recorder.replay(ruleset, PLAYERS, stakes, options or {}, numbered)
    entries = [{"kind": e.kind, "number": e.number, "body": e.body, "void": e.void, "result": r}
               for e, r in zip(numbered, results)]
    return RecordedEvening(key, "Friday", day, ruleset, entries, recorder.totals)


def hand(winner, value, by="discard", discarder=None, unit="tai", **extra):
    body = {"winners": [{"player": winner, unit: value}], "by": by, **extra}
    if discarder:
        body["discarder"] = discarder
    return (HAND, body)


# -- worked cases ------------------------------------------------------------


def test_a_self_draw_is_paid_by_all_three_and_a_discard_by_the_discarder_alone():
    # Amy deals (streak 0, extra 1). Hand 1: Ben self-draws 2 台: Amy pays 50 + 10 × (2 + 1) = 80,
    # Cat and Dan 70 each. Hand 2, Cat deals: Dan wins 1 台 on Amy's discard: 60.
    figures = evening("taiwan", [hand("Ben", 2, "self_draw"), hand("Dan", 1, discarder="Amy")])
    figures = evening_figures(figures)
    assert figures["Ben"].against == {"Amy": 80, "Cat": 70, "Dan": 70}
    assert figures["Amy"].against == {"Ben": -80, "Dan": -60}
    assert figures["Dan"].against == {"Ben": -70, "Amy": 60}
    assert (figures["Amy"].net, figures["Ben"].net, figures["Cat"].net, figures["Dan"].net) == (-140, 220, -70, -10)
    assert (figures["Ben"].self_draws, figures["Dan"].self_draws, figures["Amy"].deal_ins) == (1, 0, 1)


def test_several_winners_on_one_discard_are_each_paid_by_the_discarder_and_it_is_one_deal_in():
    # multiple_winners on: Dan discards, Ben 2 台 and Cat 3 台; dealer Amy is neither: 70 and 80.
    body = {"winners": [{"player": "Ben", "tai": 2}, {"player": "Cat", "tai": 3}], "by": "discard",
            "discarder": "Dan"}
    figures = evening_figures(evening("taiwan", [(HAND, body)], options={"multiple_winners": True}))
    assert figures["Dan"].against == {"Ben": -70, "Cat": -80}
    assert (figures["Dan"].deal_ins, figures["Ben"].wins, figures["Cat"].wins) == (1, 1, 1)


def test_shanghai_three_mouth_payers_pay_the_winner():
    # 底分 10. Hand 1: Ben self-draws 4 points, related to Cat (三口): Cat pays five shares, 5 × 40 = 200.
    # Hand 2 (Ben deals): Ben wins 2 points on ready Dan's discard, related to Cat: Dan and Cat one share each, 20.
    first = hand("Ben", 4, "self_draw", unit="points", three_mouth=[["Ben", "Cat"]])
    second = hand("Ben", 2, discarder="Dan", unit="points", three_mouth=[["Cat", "Ben"]], discarder_ready=True)
    figures = evening_figures(evening("shanghai", [first, second], stakes={"base": 10}))
    assert figures["Ben"].against == {"Cat": 220, "Dan": 20}
    assert figures["Ben"].net == 240
    assert (figures["Dan"].deal_ins, figures["Cat"].deal_ins) == (1, 0)  # Cat paid but threw nothing
    assert (figures["Ben"].value_sums, figures["Ben"].value_wins) == ({"points": 6}, {"points": 2})


def test_a_robbed_kong_is_a_deal_in_and_the_flower_events_are_not():
    # taiwan_zz, base 30, per_tai 10, dealer Amy. Hand 1: Ben robs Cat's kong, 2 台: Cat pays 30 + 20 = 50.
    # Hand 2, Ben deals (streak 0, extra 1): Cat wins 七搶一 (8 台) from Dan, the eighth flower's holder:
    # 30 + 80 = 110. Hand 3, Cat deals: Dan 八仙過海 (8 台), paid by all three:
    # dealer Cat 30 + 10 × (8 + 1) = 120, Amy and Ben 110.
    stakes = {"base": 30, "per_tai": 10}
    rob = hand("Ben", 2, "robbing_kong", "Cat")
    seven = (HAND, {"winners": [{"player": "Cat", "tai": 8, "event": "seven_flowers_rob"}], "by": "discard",
                    "discarder": "Dan"})
    eight = (HAND, {"winners": [{"player": "Dan", "tai": 8, "event": "eight_flowers"}], "by": "self_draw"})
    figures = evening_figures(evening("taiwan_zz", [rob, seven, eight], stakes=stakes))
    assert {name: f.deal_ins for name, f in figures.items()} == {"Amy": 0, "Ben": 0, "Cat": 1, "Dan": 0}
    assert figures["Dan"].against == {"Cat": 10, "Amy": 110, "Ben": 110}  # −110 to Cat, then +120
    assert figures["Dan"].self_draws == 1


def test_a_false_win_pays_everyone_counts_a_hand_and_deals_again():
    # Amy deals, streak 0. Ben's 詐胡 as a self-drawn 8 台: Cat and Dan get 50 + 80 = 130, dealer Amy
    # 50 + 10 × (8 + 1) = 140. The table does not move: Amy deals the next hand too, which Amy
    # self-draws 1 台: 50 + 10 × 2 = 70 from each. Both hands are dealt at 連0: the 詐胡 keeps no deal, so
    # Amy's longest streak is 連0 (one hand as the table counts them), not 連1.
    figures = evening_figures(evening("taiwan", [(HAND, {"false_win": "Ben"}), hand("Amy", 1, "self_draw")]))
    assert figures["Ben"].against == {"Amy": -140 - 70, "Cat": -130, "Dan": -130}
    assert (figures["Ben"].deal_ins, figures["Ben"].wins, figures["Ben"].hands) == (0, 0, 2)
    assert figures["Amy"].longest_dealer_streak == 1
    assert standing_row("Amy", "Amy", figures["Amy"])["longest_dealer_streak"] == 0
    assert (figures["Ben"].quick_hands, figures["Ben"].full_hands) == (1, 0)  # the 詐胡 is neither


def test_a_voided_hand_counts_for_nothing():
    # Hand 1 (Ben 3 台 on Cat's discard) is voided: only hand 2 counts, Dan 1 台 on Cat's discard, 60,
    # with Amy still dealing (streak 0), so her streak is one hand.
    events = [(HAND, hand("Ben", 3, discarder="Cat")[1], True), hand("Dan", 1, discarder="Cat")]
    figures = evening_figures(evening("taiwan", events))
    assert figures["Ben"] == Figures(evenings=1, hands=1, quick_hands=1)
    assert figures["Cat"].deal_ins == 1 and figures["Cat"].net == -60
    assert figures["Amy"].longest_dealer_streak == 1


def test_a_substitute_has_the_hands_they_sat_in_and_takes_over_the_deal():
    # Amy deals and keeps the deal on a draw (streak 1); Eve takes her seat and deals hand 2 (a draw) and
    # hand 3, which Cat wins on Eve's discard with Eve on streak 2: 50 + 10 × (1 + 5) = 110. Amy dealt at
    # 連0 only; Eve deals on at the seat's streak, hand 3 at 連2 (the table's badge): 1 + 2 = 3.
    events = [(HAND, {"draw": True}), (SEAT, {"seat": 0, "player": "Eve"}), (HAND, {"draw": True}),
              hand("Cat", 1, discarder="Eve")]
    figures = evening_figures(evening("taiwan", events))
    assert {name: f.hands for name, f in figures.items()} == {"Amy": 1, "Ben": 3, "Cat": 3, "Dan": 3, "Eve": 2}
    assert (figures["Amy"].longest_dealer_streak, figures["Eve"].longest_dealer_streak) == (1, 3)
    assert [standing_row(name, name, figures[name])["longest_dealer_streak"] for name in ("Amy", "Eve", "Ben")] == [
        0, 2, None]
    assert figures["Eve"].against == {"Cat": -110}
    assert figures["Amy"] == Figures(evenings=1, hands=1, longest_dealer_streak=1)


def test_a_full_entry_brings_its_patterns_and_is_a_full_hand_for_everyone_seated():
    # 門清 1 + 平胡 2 = 3 台 (fixtures/worked_hands_taiwan.json, everyday_all_chows) on Dan's discard: 80.
    body = {"winners": [{"player": "Cat", "hand": ALL_CHOWS, "win": {}}], "by": "discard", "discarder": "Dan"}
    figures = evening_figures(evening("taiwan", [(HAND, body), hand("Cat", 2, "self_draw")]))
    cat = figures["Cat"]
    assert cat.patterns == {"concealed": 1, "all_chows": 1}
    assert (cat.full_wins, cat.wins, cat.full_hands, cat.quick_hands) == (1, 2, 1, 1)
    assert (figures["Amy"].full_hands, figures["Amy"].full_wins) == (1, 0)
    assert cat.biggest == {"value": 3, "unit": "tai", "session": "s1", "number": 1}
    assert cat.against["Dan"] == 80 + 70  # then Cat's self-draw of 2 台: 50 + 20 from Dan


def test_figures_go_to_json_and_back():
    body = {"winners": [{"player": "Cat", "hand": ALL_CHOWS, "win": {}}], "by": "discard", "discarder": "Dan"}
    for figures in evening_figures(evening("taiwan", [(HAND, body)])).values():
        stored = json.loads(json.dumps(figures.to_json()))
        assert Figures.from_json(stored) == figures


def test_adding_figures_adds_counts_and_keeps_the_biggest_and_longest():
    a = Figures(net=100, evenings=1, hands=4, wins=1, value_sums={"tai": 5}, value_wins={"tai": 1},
                biggest={"value": 5, "unit": "tai", "session": "a", "number": 3}, longest_dealer_streak=3,
                patterns={"concealed": 1}, against={"Ben": 100})
    b = Figures(net=-40, evenings=1, hands=2, wins=2, value_sums={"tai": 5, "points": 10},
                value_wins={"tai": 1, "points": 1}, biggest={"value": 10, "unit": "points", "session": "b", "number": 1},
                longest_dealer_streak=2, patterns={"concealed": 1, "all_chows": 1}, against={"Ben": -60, "Cat": 20})
    both = a + b
    assert (both.net, both.evenings, both.hands, both.wins) == (60, 2, 6, 3)
    assert both.value_sums == {"tai": 10, "points": 10} and both.value_wins == {"tai": 2, "points": 1}
    assert both.biggest == {"value": 10, "unit": "points", "session": "b", "number": 1}
    assert both.longest_dealer_streak == 3
    assert both.patterns == {"concealed": 2, "all_chows": 1}
    assert both.against == {"Ben": 40, "Cat": 20}
    assert total([]) == Figures()
    row_sum = total([a, b], ROW_TALLIES)  # what a standings row shows: no patterns, no head-to-head
    assert row_sum == dataclasses.replace(both, patterns={}, against={})


def test_a_tie_for_the_biggest_hand_goes_the_same_way_in_any_order():
    early = Figures(biggest={"value": 5, "unit": "tai", "session": "a", "number": 7})
    late = Figures(biggest={"value": 5, "unit": "tai", "session": "b", "number": 1})
    assert (early + late).biggest == (late + early).biggest == early.biggest


def test_rates_are_the_exact_fractions_rounded_nowhere_before_they_are_shown():
    """1 win and 1 deal-in in 22 hands: 1/22 = 4.5454…%, which the page and the sheet show as 4.5 %; sent
    rounded to 0.0455, the page rounded it again to 4.6 %."""
    row = standing_row("m1", "Amy", Figures(evenings=2, hands=22, wins=1, deal_ins=1))
    assert row["win_rate"] == row["deal_in_rate"] == 1 / 22


def test_a_members_patterns_are_counted_by_rule_set():
    """dragon_pung is taiwan's 三元台 and shanghai's 字牌碰/字暗刻: the page names each by its rule set, so the
    counts are kept apart, most first (ties by id, then rule set)."""
    rows = [(EveningRef("a", "A", DAY, "taiwan"), Figures(evenings=1, patterns={"dragon_pung": 1, "concealed": 1})),
            (EveningRef("b", "B", DAY, "shanghai"), Figures(evenings=1, patterns={"dragon_pung": 1})),
            (EveningRef("c", "C", DAY, "taiwan"), Figures(evenings=1, patterns={"dragon_pung": 1}))]
    assert member_page(rows, "m1", {"m1": "Amy"})["patterns"] == [
        {"pattern": "dragon_pung", "ruleset": "taiwan", "count": 2},
        {"pattern": "concealed", "ruleset": "taiwan", "count": 1},
        {"pattern": "dragon_pung", "ruleset": "shanghai", "count": 1}]


def test_a_row_without_hands_has_no_rates():
    row = standing_row("m1", "Amy", Figures(evenings=1))
    assert (row["win_rate"], row["deal_in_rate"], row["average_per_win"], row["biggest_hand"]) == (
        None, None, [], None)


def test_standings_put_the_best_net_first_and_ties_by_name():
    rows = [("m2", Figures(net=100, evenings=1)), ("m1", Figures(net=100, evenings=1)),
            ("m3", Figures(net=-50, evenings=1)), ("m3", Figures(net=-150, evenings=1))]
    table = standings(rows, {"m1": "Zoe", "m2": "Amy", "m3": "Ben"})
    assert [(row["name"], row["net"], row["evenings"]) for row in table] == [
        ("Amy", 100, 1), ("Zoe", 100, 1), ("Ben", -200, 2)]


def test_a_member_page_sums_by_rule_set_and_keeps_the_days_in_order():
    ref = EveningRef("s2", "Later", datetime.date(2026, 12, 4), "shanghai")
    earlier = EveningRef("s1", "Earlier", datetime.date(2026, 11, 27), "taiwan")
    rows = [(ref, Figures(net=-30, evenings=1, hands=3, against={"m2": -30})),
            (earlier, Figures(net=100, evenings=1, hands=4, against={"m2": 60, "m3": 40}))]
    page = member_page(rows, "m1", {"m1": "Amy", "m2": "Ben", "m3": "Cat"}, aliases=["阿美"])
    assert page["member"] == {"id": "m1", "name": "Amy", "aliases": ["阿美"]}
    assert [(p["session"], p["net"], p["cumulative"]) for p in page["series"]] == [("s1", 100, 100), ("s2", -30, 70)]
    assert page["series"][0]["day"] == "2026-11-27"
    assert {k: (v["net"], v["hands"]) for k, v in page["by_ruleset"].items()} == {
        "shanghai": (-30, 3), "taiwan": (100, 4)}
    assert page["head_to_head"] == [{"member": "m3", "name": "Cat", "net": 40},
                                    {"member": "m2", "name": "Ben", "net": 30}]
    assert page["overall"]["net"] == 70


# -- properties ---------------------------------------------------------------

STAKES = {"taiwan": TAIWAN, "taiwan_zz": {"base": 30, "per_tai": 10}, "shanghai": {"base": 10}}
EVERYONE = PLAYERS + ["Eve", "Fay"]


def hand_body(draw, ruleset, seats):
    """One quick-entry hand body legal at a table with `seats` (multiple winners allowed).

    A plain function given ``draw``, its choices sampled from tuples: strategies hypothesis caches, where one built
    from a list is validated again on every draw (tests/ledger/strategies.py, ``_set``); the same values are drawn.
    """
    seats = tuple(seats)
    unit = "points" if ruleset == "shanghai" else "tai"
    value = st.integers(1, 40) if ruleset == "shanghai" else st.integers(0, 16)
    kind = draw(st.sampled_from(("draw", "self_draw", "discard", "robbing_kong", "false_win")))
    if kind == "draw":
        return {"draw": True}
    if kind == "false_win":
        return {"false_win": draw(st.sampled_from(seats))}
    if kind == "self_draw":
        return {"winners": [{"player": draw(st.sampled_from(seats)), unit: draw(value)}], "by": "self_draw"}
    discarder = draw(st.sampled_from(seats))
    others = tuple(p for p in seats if p != discarder)
    most = 3 if kind == "discard" else 1
    names = draw(st.lists(st.sampled_from(others), min_size=1, max_size=most, unique=True))
    body = {"winners": [{"player": name, unit: draw(value)} for name in names], "by": kind, "discarder": discarder}
    if ruleset == "shanghai" and len(names) == 1 and draw(st.booleans()):
        partner = draw(st.sampled_from(tuple(p for p in seats if p != names[0])))
        body["three_mouth"] = [[names[0], partner]]
        body["discarder_ready"] = kind == "discard" and draw(st.booleans())
    return body


@st.composite
def evenings(draw, key="s1", day=DAY):
    """A recorded evening of up to 16 events: hands (some voided) and substitutes."""
    ruleset = draw(st.sampled_from(("taiwan", "taiwan_zz", "shanghai")))
    seats, events = list(PLAYERS), []
    for _ in range(draw(st.integers(0, 16))):
        if draw(st.integers(0, 7)) == 0:
            player = draw(st.sampled_from(tuple(p for p in EVERYONE if p not in seats)))
            seat = draw(st.integers(0, 3))
            seats[seat] = player
            events.append((SEAT, {"seat": seat, "player": player}))
        else:
            events.append((HAND, hand_body(draw, ruleset, seats), draw(st.integers(0, 5)) == 0))
    options = {} if ruleset == "shanghai" else {"multiple_winners": True}
    return evening(ruleset, events, stakes=STAKES[ruleset], options=options, key=key, day=day)


@settings(max_examples=examples(bounded=37, deep=150), deadline=None)
@given(evenings())
def test_an_evening_nets_to_zero_and_against_sums_to_each_net(recorded):
    figures = evening_figures(recorded)
    assert {name: f.net for name, f in figures.items()} == dict(recorded.totals)
    assert sum(f.net for f in figures.values()) == 0
    for name, one in figures.items():
        assert sum(one.against.values()) == one.net
        for other, amount in one.against.items():
            assert figures[other].against[name] == -amount  # what one won from the other, the other lost
    counted = [e for e in recorded.entries if e["kind"] == HAND and not e["void"]]
    assert sum(f.hands for f in figures.values()) == 4 * len(counted)


@settings(max_examples=examples(bounded=15, deep=60), deadline=None)
@given(st.lists(evenings(), min_size=1, max_size=4), st.randoms())
def test_standings_over_a_period_are_the_sum_over_its_evenings_in_any_order(recorded, rng):
    rows = [(name, figures) for one in recorded for name, figures in evening_figures(one).items()]
    names = {name: name for name, _ in rows}
    shuffled = list(rows)
    rng.shuffle(shuffled)
    assert standings(shuffled, names) == standings(rows, names)
    by_player = {}
    for name, figures in rows:
        by_player.setdefault(name, []).append(figures)
    expected = {name: standing_row(name, name, _added_one_by_one(figures)) for name, figures in by_player.items()}
    assert {row["member"]: row for row in standings(rows, names)} == expected
    for name, figures in by_player.items():
        assert sum(f.net for f in figures) == expected[name]["net"]
        assert sum(f.hands for f in figures) == expected[name]["hands"]


@settings(max_examples=examples(bounded=15, deep=60), deadline=None)
@given(st.lists(evenings(), min_size=3, max_size=3))
def test_adding_figures_is_associative(recorded):
    a, b, c = (total(evening_figures(one).values()) for one in recorded)
    assert (a + b) + c == a + (b + c) == total([c, a, b])


@settings(max_examples=examples(bounded=25, deep=100), deadline=None)
@given(evenings(), st.randoms())
def test_where_entries_sit_matters_only_to_the_dealer_streak(recorded, rng):
    """Each hand's figures come from its own stored result: shuffling the entries (results kept) or
    adding voided hands and seat changes anywhere changes nothing else."""
    entries = list(recorded.entries)
    rng.shuffle(entries)
    shuffled = evening_figures(dataclasses.replace(recorded, entries=entries))
    original = evening_figures(recorded)
    assert _without_streak(shuffled) == _without_streak(original)
    padded = list(recorded.entries)
    for entry in recorded.entries:
        if entry["kind"] == SEAT or entry["void"]:
            padded.insert(rng.randrange(len(padded) + 1), entry)
    assert evening_figures(dataclasses.replace(recorded, entries=padded)) == original


def _without_streak(figures):
    return {name: dataclasses.replace(f, longest_dealer_streak=0) for name, f in figures.items()}


def _added_one_by_one(figures):
    result = Figures()
    for one in reversed(figures):
        result = result + one
    return result
