"""Request bodies (API.md, Hands and Seats), as their schemas load them, turned into ledger entries; a body of the
wrong shape is the schema's to refuse (tests/api/sessions/test_body_shapes.py), what depends on the rule set is
refused here."""

import pytest

from ledger.entries import HandEntry, SeatChange, Winner, hand_from_request, seat_change_from_request
from ledger.errors import InvalidRequest


def test_quick_entry_discard():
    body = {"winners": [{"player": "Amy", "tai": 3}], "by": "discard", "discarder": "Cat"}
    assert hand_from_request(body, "taiwan") == HandEntry(
        winners=(Winner("Amy", 3),), by="discard", discarder="Cat"
    )


def test_shanghai_entry_with_points_dice_three_mouth_and_ready():
    body = {
        "winners": [{"player": "Ben", "points": 6}, {"player": "Dan", "points": 10}],
        "by": "discard", "discarder": "Cat", "dice": [1, 4],
        "three_mouth": [["Ben", "Cat"]], "discarder_ready": True,
    }
    assert hand_from_request(body, "shanghai") == HandEntry(
        winners=(Winner("Ben", 6), Winner("Dan", 10)), by="discard", discarder="Cat",
        dice=(1, 4), three_mouth=(("Ben", "Cat"),), discarder_ready=True,
    )


def test_event_is_carried_on_the_winner():
    body = {"winners": [{"player": "Ben", "tai": 8, "event": "seven_flowers_rob"}],
            "by": "discard", "discarder": "Dan"}
    assert hand_from_request(body, "taiwan_zz").winners == (Winner("Ben", 8, "seven_flowers_rob"),)


def test_draw_with_and_without_reason():
    assert hand_from_request({"draw": True, "reason": "four_kongs"}, "taiwan") == HandEntry(draw="four_kongs")
    assert hand_from_request({"draw": True}, "shanghai") == HandEntry(draw="exhausted")


def test_seat_change():
    assert seat_change_from_request({"seat": 2, "player": "Eve"}) == SeatChange(2, "Eve")


@pytest.mark.parametrize(
    "body, ruleset, field, words",
    [
        ({"winners": [{"player": "Amy"}]}, "taiwan", "winners[0].tai", "needs 'tai'"),
        ({"winners": [{"player": "Amy"}]}, "shanghai", "winners[0].points", "needs 'points'"),
        ({"winners": [{"player": "Amy", "tai": 3}]}, "shanghai", "winners[0].tai", "unknown field 'tai'"),
        ({"winners": [{"player": "Amy", "points": 3}]}, "taiwan", "winners[0].points", "unknown field"),
        ({"winners": [{"player": "Amy", "tai": 3, "points": 3}]}, "taiwan", "winners[0].points", "unknown field"),
        ({"draw": False, "reason": "exhausted"}, "taiwan", "reason", "only for a draw"),
        ({"reason": "exhausted"}, "taiwan", "reason", "only for a draw"),
    ],
)
def test_hand_bodies_of_another_rule_set_or_a_reason_without_a_draw(body, ruleset, field, words):
    with pytest.raises(InvalidRequest) as caught:
        hand_from_request(body, ruleset)
    assert caught.value.field == field
    assert words in caught.value.message

