"""``scoring.holds_at``: whether a full entry's breakdown still holds when the deal moved under it.

A replay keeps a stored breakdown when this says so instead of scoring the
hand again, so the property below is what makes that safe: whenever it says
"holds", scoring again at the new table gives exactly the stored breakdown.
"""
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ledger import recorder, rules
from ledger.errors import LedgerError
from ledger.recorder import Event, Recorder
from ledger.rules import score
from ledger.scoring import Seat, holds_at
from tests.ledger.strategies import winning_hands
from tests.ledger.test_scoring_properties import PROPERTY

#: 門清, 平胡 hand with no honour and no flower: nothing in it reads the table.
PLAIN = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}
#: The same shape with a pung of 東 instead of 789p.
EAST_PUNG = {"concealed": "123m456m111z234s56s55p", "winning_tile": "7s"}
DISCARD = {"by": "discard"}


def breakdown(hand, win, at: Seat) -> dict:
    return score("taiwan", hand, win, **at._asdict()).to_dict()


def test_the_same_table_holds():
    at = Seat("S", "E", "E", False)
    assert holds_at(breakdown(EAST_PUNG, DISCARD, at), EAST_PUNG, DISCARD, at, at)


def test_a_hand_that_reads_nothing_of_the_table_holds_anywhere():
    before, after = Seat("S", "E", "E", False), Seat("E", "S", "N", True)
    stored = breakdown(PLAIN, DISCARD, before)
    assert stored["total"] == 3  # 門清 1 + 平胡 2, at either table
    assert holds_at(stored, PLAIN, DISCARD, before, after)
    assert breakdown(PLAIN, DISCARD, after) == stored


@pytest.mark.parametrize("before, after", [
    (Seat("S", "E", "E", False), Seat("E", "E", "E", True)),   # 門風 東 now
    (Seat("E", "E", "E", True), Seat("S", "S", "S", False)),   # it was 門風, 圈風 and 風牌
    (Seat("S", "S", "E", False), Seat("W", "S", "S", False)),  # it was 風牌 (局 wind 東)
])
def test_a_pung_of_a_wind_in_play_is_scored_again(before, after):
    stored = breakdown(EAST_PUNG, DISCARD, before)
    assert not holds_at(stored, EAST_PUNG, DISCARD, before, after)
    assert breakdown(EAST_PUNG, DISCARD, after)["total"] != stored["total"]


def test_a_pung_of_the_same_winds_at_both_tables_holds():
    before, after = Seat("S", "E", "E", False), Seat("W", "E", "E", False)  # 圈風 and 風牌 東 at both
    stored = breakdown(EAST_PUNG, DISCARD, before)
    assert stored["total"] == 3  # 門清 1 + 風圈 1 + 風牌 1
    assert holds_at(stored, EAST_PUNG, DISCARD, before, after)
    assert breakdown(EAST_PUNG, DISCARD, after) == stored


def test_a_pung_of_a_wind_not_in_play_at_either_table_holds():
    before, after = Seat("S", "S", "S", False), Seat("W", "S", "W", False)  # 東 nowhere
    stored = breakdown(EAST_PUNG, DISCARD, before)
    assert holds_at(stored, EAST_PUNG, DISCARD, before, after)
    assert breakdown(EAST_PUNG, DISCARD, after) == stored


def test_a_flower_of_one_seat_only_is_scored_again():
    hand = dict(PLAIN, flowers="1f")  # 春: 東's flower
    before, after = Seat("S", "E", "E", False), Seat("E", "E", "E", True)
    stored = breakdown(hand, DISCARD, before)
    # a flower spoils 平胡: 門清 1; at 東 + 花牌 1
    assert stored["total"] == 1 and breakdown(hand, DISCARD, after)["total"] == 2
    assert not holds_at(stored, hand, DISCARD, before, after)
    assert not holds_at(breakdown(hand, DISCARD, after), hand, DISCARD, after, before)


def test_as_many_flowers_of_each_seat_hold():
    hand = dict(PLAIN, flowers="1f2f")  # 春 (東), 夏 (南): one flower of either seat
    before, after = Seat("S", "E", "E", False), Seat("E", "E", "E", True)
    stored = breakdown(hand, DISCARD, before)
    assert stored["total"] == 2  # 門清 1 + 花牌 1 (夏), at either seat
    assert holds_at(stored, hand, DISCARD, before, after)
    assert breakdown(hand, DISCARD, after) == stored


def test_a_flower_of_neither_seat_holds():
    hand = dict(PLAIN, flowers="3f7f")  # 秋, 菊: 西's flowers
    before, after = Seat("S", "E", "E", False), Seat("N", "S", "E", False)
    stored = breakdown(hand, DISCARD, before)
    assert holds_at(stored, hand, DISCARD, before, after)
    assert breakdown(hand, DISCARD, after) == stored


def test_an_event_is_scored_again_when_the_dealer_changed():
    """天胡 is the dealer's: at a table where the winner is not the dealer it is refused (R9)."""
    win = {"by": "self_draw", "event": "heavenly_win"}
    before, after = Seat("E", "E", "E", True), Seat("S", "E", "E", False)
    stored = breakdown(PLAIN, win, before)
    assert not holds_at(stored, PLAIN, win, before, after)
    with pytest.raises(LedgerError):
        breakdown(PLAIN, win, after)


def test_an_event_holds_when_only_the_winds_moved():
    win = {"by": "discard", "event": "earthly_win"}
    before, after = Seat("S", "E", "E", False), Seat("W", "E", "S", False)
    stored = breakdown(PLAIN, win, before)
    assert holds_at(stored, PLAIN, win, before, after)
    assert breakdown(PLAIN, win, after) == stored


SEATS = st.builds(Seat, *[st.sampled_from("ESWN")] * 3, st.booleans())
EVENTS = st.none() | st.sampled_from(("heavenly_win", "earthly_win", "heavenly_ready", "earthly_ready"))


@PROPERTY
@given(st.sampled_from(("taiwan", "taiwan_zz", "shanghai")), winning_hands(), winning_hands(ruleset_size=14),
       st.booleans(), st.booleans(), EVENTS, SEATS, SEATS)
def test_whenever_a_breakdown_holds_scoring_again_gives_it(ruleset_id, drawn17, drawn14, no_flowers,
                                                            see_all, event, before, after):
    ruleset = rules.get_ruleset(ruleset_id)
    hand, win = drawn14 if ruleset.hand_size == 14 else drawn17
    if no_flowers:
        hand = dict(hand, flowers="")
    if event in ruleset.events and event not in ruleset.alone:
        win = dict(win, event=event)
    options = {"see_flower_see_word": see_all} if ruleset_id == "taiwan_zz" else {}
    try:
        stored = score(ruleset_id, hand, win, options=options, **before._asdict()).to_dict()
    except LedgerError:
        assume(False)
    if holds_at(stored, hand, win, before, after):
        assert score(ruleset_id, hand, win, options=options, **after._asdict()).to_dict() == stored


# ---- in a replay: a kept breakdown is what scoring again would give ------------------
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
STAKES = {"base": 100, "per_tai": 20}


@st.composite
def full_entry_evenings(draw):
    """3–8 hands of full entries (taiwan), each won by a random player, from a random discarder."""
    bodies = []
    for _ in range(draw(st.integers(3, 8))):
        hand, win = draw(winning_hands())
        winner, discarder = draw(st.permutations(PLAYERS))[:2]
        body = {"winners": [{"player": winner, "hand": hand, "win": win}], "by": win["by"]}
        if win["by"] != "self_draw":
            body["discarder"] = discarder
        bodies.append(body)
    return bodies


@PROPERTY
@given(full_entry_evenings(), st.data())
def test_a_replay_after_a_void_keeps_only_breakdowns_that_scoring_again_gives(bodies, data):
    events = [Event("hand", body, number=n) for n, body in enumerate(bodies, 1)]
    _, first = Recorder.replay("taiwan", PLAYERS, STAKES, {}, events)
    voided = data.draw(st.integers(0, len(events) - 1))
    kept = [e._replace(void=i == voided, earlier=result) for i, (e, result) in enumerate(zip(events, first))]
    cold = [e._replace(void=i == voided) for i, e in enumerate(events)]
    with_kept, kept_results = Recorder.replay("taiwan", PLAYERS, STAKES, {}, kept)
    scored_again, cold_results = Recorder.replay("taiwan", PLAYERS, STAKES, {}, cold)
    assert kept_results == cold_results
    assert with_kept.totals == scored_again.totals


def test_a_void_that_moves_the_deal_keeps_a_breakdown_that_reads_nothing_of_the_table(monkeypatch):
    """Hand 2 (Cat self-draws PLAIN: 門清一摸三 3 + 平胡 2 = 5 台) moves from Ben's deal to Amy's."""
    bodies = [{"winners": [{"player": "Ben", "tai": 1}], "by": "discard", "discarder": "Cat"},
              {"winners": [{"player": "Cat", "hand": PLAIN, "win": {}}], "by": "self_draw"}]
    events = [Event("hand", body, number=n) for n, body in enumerate(bodies, 1)]
    _, first = Recorder.replay("taiwan", PLAYERS, STAKES, {}, events)
    # Ben deals hand 2 (streak 0): he pays 100 + (5 + 1) × 20 = 220, Amy and Dan 100 + 5 × 20 = 200.
    assert first[1]["dealer"] == "Ben" and first[1]["scores"][0]["tai"] == 5
    assert first[1]["payments"] == {"Amy": -200, "Ben": -220, "Cat": 620, "Dan": -200}
    scored = []
    monkeypatch.setattr(recorder.scoring.Scorer, "score", lambda *args, **kwargs: scored.append(args))
    _, after = Recorder.replay("taiwan", PLAYERS, STAKES, {}, [
        events[0]._replace(void=True, earlier=first[0]), events[1]._replace(earlier=first[1])])
    assert scored == []  # kept, not scored again
    # Amy deals it now: she pays 220, Ben and Dan 200.
    assert after[1]["dealer"] == "Amy" and after[1]["scores"] == first[1]["scores"]
    assert after[1]["payments"] == {"Amy": -220, "Ben": -200, "Cat": 620, "Dan": -200}
