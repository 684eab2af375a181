"""Hands through the API: quick and full entry, numbering, void, correct, idempotency, rejects.

Taiwanese stakes 底 100, 台 20 unless said otherwise; Amy deals first. A payer
pays 100 + 20 × (台 + dealer extra), the extra 1 + 2n only on a payment
between the dealer and another player (RULES.md §6).
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.sessions.tables import DRAW, OPEN, PLAYERS, Table, assert_matches_replay, assert_rejected, discard, self_draw
from tests.fuzzing import examples

# Full entry (taiwan): an exposed 南 pung, 123m 456m 789p 234s, waiting on 5s for the pair.
# Not 門清, no 自摸 on a discard: it scores only the 南 wind patterns, 門風 / 風圈 / 風牌 (RULES.md §4).
SOUTH_PUNG = {"concealed": "123m456m789p234s5s", "melds": [{"kind": "pung", "tiles": "222z"}],
              "winning_tile": "5s"}
# taiwan, all concealed: 123m 456m 789p 234s 567s and the 5p pair.
CONCEALED_CHOWS = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}
# taiwan, 16 tiles + 9p that do not split into five sets and a pair.
NO_SHAPE = {"concealed": "123m456m789p234s57s11z", "winning_tile": "9p"}
# shanghai 混一色 (0 番) + 門清 (1 番) with a 中 pung (2 花): (2 + 2) × 2 = 8 points (RULES.md §7).
HALF_FLUSH = {"concealed": "123m456m789m777z5m", "winning_tile": "5m"}
# shanghai 垃圾胡: no qualifying pattern.
PLAIN = {"concealed": "123m456p789s234m5s", "winning_tile": "5s"}

def test_a_quick_entry_returns_the_hand_as_played_and_the_state_after(client):
    table = Table(client)
    response = table.hand(discard("Ben", "Cat", tai=3))
    assert response.status_code == 201
    hand = response.get_json()
    # Amy deals (streak 0) but neither pays nor wins: Cat pays 100 + 20 × 3 = 160; Ben deals next.
    assert {key: hand[key] for key in ("number", "void", "dealer", "streak", "round_wind", "hand_wind",
                                       "wasteland", "payments", "scores")} == {
        "number": 1, "void": False, "dealer": "Amy", "streak": 0, "round_wind": "E", "hand_wind": "E",
        "wasteland": 0, "payments": {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0},
        "scores": [{"player": "Ben", "tai": 3, "score": None}],
    }
    assert hand["state"] == {"dealer": "Ben", "streak": 0, "round_wind": "E", "hand_wind": "S", "hands_played": 1,
                             "wasteland": 0, "seats": PLAYERS, "jiang": 1}
    assert hand["body"] == discard("Ben", "Cat", tai=3)
    session = table.session()
    assert session["state"] == {**hand["state"], **OPEN}
    assert session["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}


def test_the_answer_to_a_hand_carries_the_evening_after_it_so_a_table_paints_without_reading_it(client):
    # Issue 32: tap Record -> the totals in one round trip. Cat pays Ben 100 + 20 × 3 = 160; then dealer Ben
    # self-draws 1 台 at streak 0 (extra 1): each pays 100 + 20 × 2 = 140.
    table = Table(client)
    first = table.hand(discard("Ben", "Cat", tai=3))
    second = table.hand(self_draw("Ben", 1))
    assert first.get_json()["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
    assert second.get_json()["totals"] == {"Amy": -140, "Ben": 580, "Cat": -300, "Dan": -140}
    # Created at revision 1, one revision a hand (API.md "Revisions"); the answer's revision is its ETag.
    assert [first.get_json()["revision"], second.get_json()["revision"]] == [2, 3]
    assert second.headers["ETag"] == '"3"'
    assert table.session()["revision"] == 3 and table.totals() == second.get_json()["totals"]


def test_hands_are_numbered_in_order_and_listed(client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2), DRAW, discard("Cat", "Amy", 1))
    hands = table.hands()
    assert [h["number"] for h in hands] == [1, 2, 3]
    # 1: dealer Amy self-draws 2 台 at streak 0 (extra 1): each pays 100 + 20 × 3 = 160.
    # 2: a draw, Amy keeps the deal: streak 2 after it.
    # 3: Cat wins 1 台 on dealer Amy's discard, streak 2 (extra 5): 100 + 20 × 6 = 220.
    assert [h["payments"] for h in hands] == [
        {"Amy": 480, "Ben": -160, "Cat": -160, "Dan": -160},
        {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0},
        {"Amy": -220, "Ben": 0, "Cat": 220, "Dan": 0},
    ]
    assert [(h["dealer"], h["streak"]) for h in hands] == [("Amy", 0), ("Amy", 1), ("Amy", 2)]
    assert table.totals() == {"Amy": 260, "Ben": -160, "Cat": 60, "Dan": -160}
    assert table.get("/hands/3") == hands[2]


def test_an_unknown_hand_is_404_json(client):
    table = Table(client)
    table.hands_ok(DRAW)
    for response in (client.get(f"{table.path}/hands/2", headers=table.headers()),
                     table.void(2), table.correct(2, DRAW)):
        assert response.status_code == 404
        assert response.get_json()["message"] == "No hand 2 in this session."


def test_a_full_entry_is_scored_with_the_seat_round_and_hand_wind_of_the_table(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))  # Ben deals next: 南局, Ben 東, Cat 南, Dan 西, Amy 北
    hand = table.hands_ok({"winners": [{"player": "Cat", "hand": SOUTH_PUNG}], "by": "discard",
                           "discarder": "Dan"})[0]
    # Cat's 南 pung: 門風 (Cat sits 南) + 風牌 (南局), not 風圈 (東 round): 2 台; Dan pays 100 + 40 = 140.
    assert hand["payments"] == {"Amy": 0, "Ben": 0, "Cat": 140, "Dan": -140}
    score = hand["scores"][0]
    assert (score["player"], score["tai"]) == ("Cat", 2)
    assert score["score"]["total"] == 2
    assert sorted(p["id"] for p in score["score"]["patterns"]) == ["hand_wind", "seat_wind"]
    assert hand["body"]["winners"][0] == {"player": "Cat", "hand": SOUTH_PUNG}


def test_a_full_entry_by_the_dealer_gets_the_dealer_extra_in_payments(client):
    table = Table(client)
    hand = table.hands_ok({"winners": [{"player": "Amy", "hand": SOUTH_PUNG, "win": {"by": "discard"}}],
                           "by": "discard", "discarder": "Ben"})[0]
    # Amy deals: she sits 東 in 東局 of the 東 round, so the 南 pung scores nothing: 0 台,
    # plus the dealer extra 1: Ben pays 100 + 20 × 1 = 120.
    assert hand["scores"][0]["tai"] == 0
    assert hand["payments"] == {"Amy": 120, "Ben": -120, "Cat": 0, "Dan": 0}


def test_voiding_an_earlier_hand_rescores_a_later_full_entry(app, client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3),
                   {"winners": [{"player": "Cat", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Dan"})
    assert table.void(1).status_code == 200
    # Without hand 1 Amy still deals: Cat sits 西, 東局: the 南 pung is worth 0 台; Dan pays 100.
    second = table.get("/hands/2")
    assert second["scores"][0]["tai"] == 0
    assert second["payments"] == {"Amy": 0, "Ben": 0, "Cat": 100, "Dan": -100}
    assert (second["dealer"], second["hand_wind"]) == ("Amy", "E")
    assert table.totals() == {"Amy": 0, "Ben": 0, "Cat": 100, "Dan": -100}
    assert_matches_replay(app, table)


def test_a_void_keeps_the_hand_marked_and_replays_the_rest(app, client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2), discard("Cat", "Amy", 1))
    response = table.void(1, **{"X-Client": "Ben's phone"})
    assert response.status_code == 200
    voided = response.get_json()
    assert (voided["number"], voided["void"], voided["payments"], voided["scores"]) == (1, True, {}, [])
    assert voided["body"] == self_draw("Amy", 2)
    # Without hand 1, Amy deals hand 2 at streak 0 (extra 1): she pays Cat 100 + 20 × 2 = 140.
    assert table.get("/hands/2")["payments"] == {"Amy": -140, "Ben": 0, "Cat": 140, "Dan": 0}
    assert table.totals() == {"Amy": -140, "Ben": 0, "Cat": 140, "Dan": 0}
    assert table.session()["state"]["hands_played"] == 1
    assert [h["number"] for h in table.hands()] == [1, 2]
    assert table.hands_ok(DRAW)[0]["number"] == 3  # numbers are never reused
    assert table.audit() == [{"number": 1, "action": "void", "who": "Ben's phone", "at": table.audit()[0]["at"],
                              "before": self_draw("Amy", 2), "after": None}]
    assert_matches_replay(app, table)


def test_voiding_twice_changes_nothing_the_second_time(client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    first = table.void(1).get_json()
    second = table.void(1)
    assert second.status_code == 200
    assert second.get_json() == first
    assert len(table.audit()) == 1


def test_a_correction_keeps_the_number_and_replays_every_later_hand(app, client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3), self_draw("Ben", 1))
    response = table.correct(1, discard("Dan", "Cat", 3), **{"X-Client": "Amy"})
    assert response.status_code == 200
    corrected = response.get_json()
    # Dan wins hand 1 instead: Cat pays 160, and Ben no longer deals hand 2.
    assert (corrected["number"], corrected["payments"]) == (1, {"Amy": 0, "Ben": 0, "Cat": -160, "Dan": 160})
    # Hand 2, Ben self-draws 1 台; dealer Ben, streak 0 (extra 1): each pays 100 + 40 = 140.
    assert table.get("/hands/2")["payments"] == {"Amy": -140, "Ben": 420, "Cat": -140, "Dan": -140}
    assert table.totals() == {"Amy": -140, "Ben": 420, "Cat": -300, "Dan": 20}
    audit = table.audit()
    assert [(a["number"], a["action"], a["who"], a["before"], a["after"]) for a in audit] == [
        (1, "correct", "Amy", discard("Ben", "Cat", 3), discard("Dan", "Cat", 3))]
    assert_matches_replay(app, table)


def test_hand_2_deals_from_the_corrected_hand_1(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3), self_draw("Ben", 1))
    table.correct(1, self_draw("Amy", 1))
    # Amy keeps the deal: hand 2 has dealer Amy, streak 1 (extra 3); Ben self-draws 1 台:
    # Amy pays 100 + 20 × 4 = 180, Cat and Dan 100 + 20 = 120 each.
    second = table.get("/hands/2")
    assert (second["dealer"], second["streak"]) == ("Amy", 1)
    assert second["payments"] == {"Amy": -180, "Ben": 420, "Cat": -120, "Dan": -120}


def test_putting_a_voided_hand_back_restores_it(app, client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2), discard("Cat", "Amy", 1))
    before = table.totals()
    table.void(1)
    response = table.correct(1, self_draw("Amy", 2))
    assert response.status_code == 200
    assert response.get_json()["void"] is False
    # 1: Amy self-draws 2 台 as dealer (extra 1): 160 from each. 2: Cat wins 1 台 on dealer Amy's
    # discard at streak 1 (extra 3): 100 + 20 × 4 = 180.
    assert table.totals() == before == {"Amy": 300, "Ben": -160, "Cat": 20, "Dan": -160}
    assert [a["action"] for a in table.audit()] == ["void", "restore"]
    assert_matches_replay(app, table)


def test_putting_the_same_body_again_records_no_change(client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    assert table.correct(1, self_draw("Amy", 2)).status_code == 200
    assert table.audit() == []


def test_a_correction_that_is_invalid_is_422_and_changes_nothing(client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2), DRAW)
    before = table.snapshot()
    assert_rejected(table.correct(1, discard("Amy", "Amy")), "discarder", "hand 1:", "Amy")
    assert table.snapshot() == before
    assert table.audit() == []


def test_a_void_that_would_break_a_later_full_entry_is_refused(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    # Ben deals hand 2 and wins it on his first draw: 天胡 (dealer only).
    heavenly = {"winners": [{"player": "Ben", "hand": CONCEALED_CHOWS, "win": {"event": "heavenly_win"}}],
                "by": "self_draw"}
    assert table.hands_ok(heavenly)[0]["dealer"] == "Ben"
    before = table.snapshot()
    # Voiding hand 1 leaves Amy dealing hand 2: Ben's 天胡 is no longer possible.
    response = table.void(1)
    assert_rejected(response, "winners[0].win.event", "hand 2:", "dealer only")
    assert table.snapshot() == before


# -- options and payment cases -------------------------------------------------


def test_dealer_bonus_off_leaves_out_the_extra(client):
    table = Table(client, options={"dealer_bonus": False})
    hand = table.hands_ok(self_draw("Amy", 2))[0]
    assert hand["payments"] == {"Amy": 420, "Ben": -140, "Cat": -140, "Dan": -140}  # 100 + 20 × 2


def test_max_tai_caps_the_tai_before_the_dealer_extra(client):
    table = Table(client, options={"max_tai": 5})
    hand = table.hands_ok(discard("Amy", "Ben", 9))[0]
    assert hand["payments"] == {"Amy": 220, "Ben": -220, "Cat": 0, "Dan": 0}  # 100 + 20 × (5 + 1)


def test_several_winners_on_one_discard_are_each_paid(client):
    table = Table(client, options={"multiple_winners": True})
    body = {"winners": [{"player": "Ben", "tai": 2}, {"player": "Cat", "tai": 1}], "by": "discard",
            "discarder": "Dan"}
    hand = table.hands_ok(body)[0]
    # Dealer Amy is not involved: Dan pays Ben 100 + 40 = 140 and Cat 100 + 20 = 120.
    assert hand["payments"] == {"Amy": 0, "Ben": 140, "Cat": 120, "Dan": -260}
    assert hand["state"]["dealer"] == "Ben"


def test_a_robbed_kong_is_paid_by_the_robbed_player(client):
    table = Table(client)
    hand = table.hands_ok({"winners": [{"player": "Ben", "tai": 2}], "by": "robbing_kong",
                           "discarder": "Cat"})[0]
    assert hand["payments"] == {"Amy": 0, "Ben": 140, "Cat": -140, "Dan": 0}


@pytest.mark.parametrize("reason", ["exhausted", "four_winds", "four_kongs"])
def test_a_draw_pays_nothing_and_the_dealer_keeps_the_deal(client, reason):
    table = Table(client)
    hand = table.hands_ok({"draw": True, "reason": reason})[0]
    assert hand["payments"] == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}
    assert (hand["state"]["dealer"], hand["state"]["streak"]) == ("Amy", 1)


def test_shanghai_full_entry_pays_points_times_the_base(client):
    table = Table(client, ruleset="shanghai")
    hand = table.hands_ok({"winners": [{"player": "Ben", "hand": HALF_FLUSH}], "by": "discard",
                           "discarder": "Cat"})[0]
    # 8 points × 底分 10 = 80, paid by the discarder; the winner deals next.
    assert hand["scores"][0]["points"] == 8
    assert hand["payments"] == {"Amy": 0, "Ben": 80, "Cat": -80, "Dan": 0}
    assert hand["state"]["dealer"] == "Ben"


def test_shanghai_dice_make_a_wasteland_hand_that_pays_double(client):
    table = Table(client, ruleset="shanghai")
    hand = table.hands_ok({"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "dice": [1, 1]})[0]
    # (1, 1) adds 2 to H: a 荒番 hand, share 3 × 10 × 2 = 60 from each; after a win H = 1.
    assert hand["wasteland"] == 2
    assert hand["payments"] == {"Amy": -60, "Ben": 180, "Cat": -60, "Dan": -60}
    assert hand["state"]["wasteland"] == 1


# -- idempotency ---------------------------------------------------------------


def test_a_retried_post_records_once_and_returns_the_first_response(app, client):
    table = Table(client)
    first = table.hand(self_draw("Amy", 2), **{"Idempotency-Key": "hand-1"})
    table.hands_ok(DRAW)
    retry = table.hand(self_draw("Amy", 2), **{"Idempotency-Key": "hand-1"})
    assert first.status_code == retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert [h["number"] for h in table.hands()] == [1, 2]
    assert table.totals() == {"Amy": 480, "Ben": -160, "Cat": -160, "Dan": -160}
    assert_matches_replay(app, table)


def test_the_same_key_with_another_body_is_422_and_records_nothing(client):
    table = Table(client)
    table.hand(self_draw("Amy", 2), **{"Idempotency-Key": "k"})
    before = table.snapshot()
    response = table.hand(self_draw("Amy", 3), **{"Idempotency-Key": "k"})
    assert_rejected(response, "Idempotency-Key", "already used", "hand 1")
    assert table.snapshot() == before


def test_different_keys_record_different_hands(client):
    table = Table(client)
    table.hand(DRAW, **{"Idempotency-Key": "a"})
    table.hand(DRAW, **{"Idempotency-Key": "b"})
    assert [h["number"] for h in table.hands()] == [1, 2]


def test_keys_belong_to_one_session(client):
    first, second = Table(client), Table(client)
    assert first.hand(DRAW, **{"Idempotency-Key": "same"}).status_code == 201
    assert second.hand(self_draw("Ben"), **{"Idempotency-Key": "same"}).status_code == 201
    assert len(second.hands()) == 1


def test_a_rejected_hand_does_not_use_up_its_key(client):
    table = Table(client)
    assert table.hand(discard("Amy", "Amy"), **{"Idempotency-Key": "k"}).status_code == 422
    assert table.hand(DRAW, **{"Idempotency-Key": "k"}).status_code == 201


def test_an_overlong_key_is_422(client):
    table = Table(client)
    assert_rejected(table.hand(DRAW, **{"Idempotency-Key": "k" * 201}), "Idempotency-Key", "1 to 200")
    assert table.hands() == []


# -- rejected hands ------------------------------------------------------------

TAIWAN_REJECTS = [
    ({"winners": [{"player": "Zed", "tai": 1}], "by": "self_draw"}, "winners[0].player",
     ["'Zed' is not seated", "Amy, Ben, Cat, Dan"]),
    (discard("Amy", "Amy"), "discarder", ["Amy cannot both win and be the discarder"]),
    ({"winners": [{"player": "Amy", "tai": 1}], "by": "discard"}, "discarder", ["needs the discarder"]),
    (discard("Amy", "Zed"), "discarder", ["'Zed' is not seated"]),
    (discard("Amy", "Ben", -1), "winners[0].tai", ["cannot be negative"]),
    ({"winners": [{"player": "Ben", "tai": 1}, {"player": "Cat", "tai": 1}], "by": "discard",
      "discarder": "Dan"}, "winners", ["multiple_winners"]),
    ({"winners": [{"player": "Ben", "hand": NO_SHAPE}], "by": "discard", "discarder": "Dan"},
     "winners[0].hand", ["no legal shape"]),
    ({"winners": [{"player": "Ben", "hand": SOUTH_PUNG, "tai": 2}], "by": "discard", "discarder": "Dan"},
     "winners[0].tai", ["either tai or hand"]),
    ({"winners": [{"player": "Ben", "hand": SOUTH_PUNG, "win": {"by": "self_draw"}}], "by": "discard",
      "discarder": "Dan"}, "winners[0].win.by", ["hand says by 'discard'"]),
    ({"winners": [{"player": "Zed", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Dan"},
     "winners[0].player", ["'Zed' is not seated"]),
    ({"winners": [{"player": "Amy", "tai": 1}], "by": "teleport", "discarder": "Ben"}, "by", ["teleport"]),
    ({"winners": [], "by": "self_draw"}, "winners", ["needs winners"]),
    ({"draw": True, "winners": [{"player": "Amy", "tai": 1}]}, "winners", ["draw"]),
    ({"draw": True, "reason": "tired"}, "reason", ["unknown draw reason"]),
    ({"draw": True, "dice": [1, 4]}, "dice", ["shanghai"]),
]


@pytest.mark.parametrize("body, field, phrases", TAIWAN_REJECTS)
def test_an_invalid_taiwan_hand_is_422_naming_the_field_and_changes_nothing(client, body, field, phrases):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    before = table.snapshot()
    assert_rejected(table.hand(body), field, *phrases)
    assert table.snapshot() == before


SHANGHAI_REJECTS = [
    ({"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "dice": [0, 4]}, "dice", ["1 to 6"]),
    ({"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "dice": [3, 7]}, "dice", ["1 to 6"]),
    ({"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "dice": [3]}, "dice", ["two numbers"]),
    ({"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "three_mouth": [["Ben", "Zed"]]},
     "three_mouth[0]", ["'Zed' is not seated"]),
    ({"winners": [{"player": "Ben", "points": 3}], "by": "self_draw", "three_mouth": [["Ben", "Ben"]]},
     "three_mouth[0]", ["Ben twice"]),
    ({"winners": [{"player": "Ben", "hand": PLAIN}], "by": "discard", "discarder": "Cat"},
     "winners[0].hand", ["垃圾胡"]),
    ({"winners": [{"player": "Ben", "points": 0}], "by": "self_draw"}, "winners[0].points", ["at least 1"]),
    ({"winners": [{"player": "Ben", "tai": 3}], "by": "self_draw"}, "winners[0].tai", ["unknown field"]),
]


@pytest.mark.parametrize("body, field, phrases", SHANGHAI_REJECTS)
def test_an_invalid_shanghai_hand_is_422_naming_the_field_and_changes_nothing(client, body, field, phrases):
    table = Table(client, ruleset="shanghai")
    table.hands_ok({"winners": [{"player": "Ben", "points": 2}], "by": "self_draw"})
    before = table.snapshot()
    assert_rejected(table.hand(body), field, *phrases)
    assert table.snapshot() == before


@pytest.mark.parametrize("body, named", [
    ({"winners": [{"player": "Amy", "tai": "3"}], "by": "self_draw"}, "winners.0.tai"),
    ({"winners": [{"player": "Amy", "tai": 2.5}], "by": "self_draw"}, "winners.0.tai"),
    ({"winners": [{"player": "Amy", "tai": True}], "by": "self_draw"}, "winners.0.tai"),
    ({"winners": [{"tai": 2}], "by": "self_draw"}, "winners.0.player"),
    ({"winners": [{"player": "Amy", "hand": {"concealed": 7}}], "by": "self_draw"}, "winners.0.hand.concealed"),
    ({"winners": "Amy", "by": "self_draw"}, "winners"),
    ({"draw": True, "colour": "red"}, "colour"),
])
def test_a_hand_of_the_wrong_shape_is_422_naming_the_field(client, body, named):
    table = Table(client)
    response = table.hand(body)
    assert response.status_code == 422
    assert f"{named}:" in response.get_json()["message"]
    assert table.hands() == []


def test_malformed_json_is_400_and_records_nothing(client):
    table = Table(client)
    response = client.post(f"{table.path}/hands", data='{"draw": tru', content_type="application/json",
                           headers=table.headers())
    assert response.status_code == 400
    assert table.hands() == []


def test_a_body_too_large_is_413_and_records_nothing(client):
    table = Table(client)
    body = {"draw": True, "reason": "exhausted", "winners": [{"player": "x" * 300_000, "tai": 1}]}
    assert table.hand(body).status_code == 413
    assert table.hands() == []


# -- properties ----------------------------------------------------------------

HAND = st.one_of(
    st.just(DRAW),
    st.builds(lambda w, t: self_draw(PLAYERS[w], t), st.integers(0, 3), st.integers(0, 12)),
    st.builds(lambda w, d, t: discard(PLAYERS[w], PLAYERS[(w + d) % 4], t),
              st.integers(0, 3), st.integers(1, 3), st.integers(0, 12)),
)
PROPERTY_SETTINGS = settings(max_examples=examples(bounded=3, deep=12), deadline=None,
                             suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(bodies=st.lists(HAND, min_size=1, max_size=10), data=st.data())
def test_random_evenings_pay_zero_sum_and_void_then_restore_gives_back_the_totals(app, client, bodies, data):
    table = Table(client)
    hands = table.hands_ok(*bodies)
    for hand in hands:
        assert sum(hand["payments"].values()) == 0
        assert all(type(amount) is int for amount in hand["payments"].values())
    totals = table.totals()
    summed = {player: sum(h["payments"][player] for h in hands) for player in PLAYERS}
    assert totals == summed
    assert_matches_replay(app, table)

    number = data.draw(st.integers(1, len(bodies)), label="voided hand")
    assert table.void(number).status_code == 200
    assert_matches_replay(app, table)
    assert table.correct(number, bodies[number - 1]).status_code == 200
    assert table.totals() == totals
    assert [h["payments"] for h in table.hands()] == [h["payments"] for h in hands]
    assert_matches_replay(app, table)


@PROPERTY_SETTINGS
@given(bodies=st.lists(HAND, min_size=1, max_size=8))
def test_voiding_the_last_hand_and_entering_it_again_gives_the_same_totals(app, client, bodies):
    table = Table(client)
    table.hands_ok(*bodies)
    totals = table.totals()
    assert table.void(len(bodies)).status_code == 200
    table.hands_ok(bodies[-1])
    assert table.totals() == totals
    assert_matches_replay(app, table)
