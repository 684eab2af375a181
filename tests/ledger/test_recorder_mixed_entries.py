"""A hand whose winners mix a full entry (scored by the engine) and a quick entry (台 given).

`recorder.hand_entry` hands the scored winners of an all-full-entry hand to the
ledger as ready `Winner`s; a mix still goes through the quick-entry form.
"""
import pytest

from ledger.errors import InvalidRequest
from ledger.recorder import Recorder

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
STAKES = {"base": 100, "per_tai": 20}
# 123m 456m 789p 234s, a melded 南 pung, the 5s pair on a discard.
SOUTH_PUNG = {"concealed": "123m456m789p234s5s", "melds": [{"kind": "pung", "tiles": "222z"}],
              "winning_tile": "5s"}


def start():
    return Recorder.start("taiwan", PLAYERS, STAKES, {"multiple_winners": True})


@pytest.mark.parametrize("order", [1, -1])
def test_a_full_and_a_quick_winner_on_one_discard_are_each_paid(order):
    full = {"player": "Ben", "hand": SOUTH_PUNG}
    quick = {"player": "Cat", "tai": 2}
    winners = [full, quick][::order]
    result = start().record("hand", {"winners": winners, "by": "discard", "discarder": "Dan"})
    # First hand: Amy deals in 東局 of the 東 round, Ben sits 南: his 南 pung is 門風 only, 1 台.
    # Dan pays Ben 100 + 20 × 1 = 120 and Cat 100 + 20 × 2 = 140 (the dealer Amy is not involved).
    assert result["payments"] == {"Amy": 0, "Ben": 120, "Cat": 140, "Dan": -260}
    by_player = {score["player"]: score for score in result["scores"]}
    assert (by_player["Ben"]["tai"], by_player["Ben"]["score"]["total"]) == (1, 1)
    assert (by_player["Cat"]["tai"], by_player["Cat"]["score"]) == (2, None)
    assert [score["player"] for score in result["scores"]] == [w["player"] for w in winners]


def test_a_full_entry_hand_is_still_checked_like_a_quick_one():
    """(An unknown field beside a full entry is its schema's: tests/api/sessions/test_body_shapes.py.)"""
    recorder = start()
    body = {"winners": [{"player": "Ben", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Ben"}
    with pytest.raises(InvalidRequest) as refused:
        recorder.record("hand", body)
    assert (refused.value.message, refused.value.field) == ("Ben cannot both win and be the discarder",
                                                            "discarder")
    assert recorder.state.hands_played == 0
