"""POST /api/sessions/<id>/seats: substitutes (替補) and returns, and voids/corrections across them.

Taiwanese stakes 底 100, 台 20; Amy, Ben, Cat, Dan in seats 0–3, Amy deals
first. A seat keeps its place in the dealer rotation; a substitute in the
dealer's seat continues the deal and its streak (API.md, Seats).
"""
import pytest

from tests.api.sessions.tables import DRAW, Table, assert_matches_replay, assert_rejected, discard, self_draw


def test_a_substitute_in_the_dealers_seat_continues_the_deal_and_streak(app, client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))  # dealer Amy, streak 0 (extra 1): 100 + 20 × 3 = 160 from each
    response = table.seat(0, "Eve", **{"X-Client": "Ben's phone"})
    assert response.status_code == 201
    change = response.get_json()
    assert {key: change[key] for key in ("seat", "player", "replaces", "hands_played", "client")} == {
        "seat": 0, "player": "Eve", "replaces": "Amy", "hands_played": 1, "client": "Ben's phone"}
    assert change["state"] == {"dealer": "Eve", "streak": 1, "round_wind": "E", "hand_wind": "E",
                               "hands_played": 1, "wasteland": 0, "seats": ["Eve", "Ben", "Cat", "Dan"],
                               "jiang": 1}
    # Eve self-draws 1 台 as dealer at streak 1 (extra 3): 100 + 20 × 4 = 180 from each.
    hand = table.hands_ok(self_draw("Eve", 1))[0]
    assert (hand["number"], hand["dealer"], hand["streak"]) == (2, "Eve", 1)
    assert hand["payments"] == {"Eve": 540, "Ben": -180, "Cat": -180, "Dan": -180}
    session = table.session()
    assert session["totals"] == {"Amy": 480, "Ben": -340, "Cat": -340, "Dan": -340, "Eve": 540}
    assert [(c["seat"], c["player"], c["replaces"]) for c in session["seat_changes"]] == [(0, "Eve", "Amy")]
    assert_matches_replay(app, table)


def test_a_player_who_left_can_come_back_into_another_seat_keeping_her_total(app, client):
    table = Table(client)
    table.hands_ok(discard("Amy", "Cat", 2))  # dealer Amy (extra 1): Cat pays 100 + 20 × 3 = 160
    assert table.seat(0, "Eve").status_code == 201
    assert table.seat(2, "Amy").status_code == 201  # Amy comes back in Cat's seat
    # Seats Eve, Ben, Amy, Dan; dealer Eve (seat 0) at streak 1 (extra 3). Amy wins 1 台 on Ben's
    # discard, neither deals: Ben pays 100 + 20 = 120.
    hand = table.hands_ok(discard("Amy", "Ben", 1))[0]
    assert hand["payments"] == {"Eve": 0, "Ben": -120, "Amy": 120, "Dan": 0}
    assert table.totals() == {"Amy": 280, "Ben": -120, "Cat": -160, "Dan": 0, "Eve": 0}
    assert_matches_replay(app, table)


def test_a_hand_naming_someone_who_left_is_422_saying_who_is_seated(client):
    table = Table(client)
    table.hands_ok(DRAW)
    table.seat(1, "Eve")
    before = table.snapshot()
    assert_rejected(table.hand(self_draw("Ben")), "winners[0].player", "'Ben' is not seated",
                    "Amy, Eve, Cat, Dan")
    assert_rejected(table.hand(discard("Cat", "Ben")), "discarder", "Amy, Eve, Cat, Dan")
    assert table.snapshot() == before


@pytest.mark.parametrize("body, field, phrase", [
    ({"seat": 3, "player": "Ben"}, "player", "Ben already sits in seat 1"),
    ({"seat": 1, "player": "Ben"}, "player", "Ben already sits in seat 1"),
    ({"seat": 4, "player": "Eve"}, "seat", "0, 1, 2 or 3"),
    ({"seat": -1, "player": "Eve"}, "seat", "0, 1, 2 or 3"),
    ({"seat": 2, "player": " "}, "player", "non-empty"),
])
def test_an_impossible_seat_change_is_422_and_changes_nothing(client, body, field, phrase):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    before = table.snapshot()
    response = client.post(f"{table.path}/seats", json=body, headers=table.headers())
    assert_rejected(response, field, phrase)
    assert table.snapshot() == before


@pytest.mark.parametrize("body, named", [
    ({"seat": "2", "player": "Eve"}, "seat"),
    ({"seat": 2}, "player"),
    ({"player": "Eve"}, "seat"),
    ({"seat": 2, "player": "Eve", "when": "now"}, "when"),
])
def test_a_seat_change_of_the_wrong_shape_is_422_naming_the_field(client, body, named):
    table = Table(client)
    response = client.post(f"{table.path}/seats", json=body, headers=table.headers())
    assert response.status_code == 422
    assert f"{named}:" in response.get_json()["message"]
    assert table.session()["seat_changes"] == []


def test_a_retried_seat_change_records_once(client):
    table = Table(client)
    first = table.seat(0, "Eve", **{"Idempotency-Key": "eve-in"})
    retry = table.seat(0, "Eve", **{"Idempotency-Key": "eve-in"})
    assert first.status_code == retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert len(table.session()["seat_changes"]) == 1
    assert_rejected(table.seat(1, "Fay", **{"Idempotency-Key": "eve-in"}), "Idempotency-Key", "seat change")


def test_voiding_a_hand_before_a_substitution_replays_across_it(app, client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    table.seat(0, "Eve")
    table.hands_ok(self_draw("Eve", 1))
    assert table.void(1).status_code == 200
    # Without hand 1 Amy never kept the deal: Eve takes seat 0 as dealer at streak 0 (extra 1)
    # and her 1 台 self-draw costs each 100 + 20 × 2 = 140.
    second = table.get("/hands/2")
    assert (second["dealer"], second["streak"]) == ("Eve", 0)
    assert second["payments"] == {"Eve": 420, "Ben": -140, "Cat": -140, "Dan": -140}
    session = table.session()
    assert session["totals"] == {"Amy": 0, "Ben": -140, "Cat": -140, "Dan": -140, "Eve": 420}
    assert session["seat_changes"][0]["hands_played"] == 0
    assert session["state"]["seats"] == ["Eve", "Ben", "Cat", "Dan"]
    assert_matches_replay(app, table)


def test_correcting_a_hand_before_a_substitution_replays_across_it(app, client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    table.seat(0, "Eve")
    table.hands_ok(self_draw("Eve", 1))
    assert table.correct(1, discard("Ben", "Amy", 1)).status_code == 200
    # Hand 1: Ben wins 1 台 on dealer Amy's discard (extra 1): Amy pays 100 + 20 × 2 = 140; Ben deals.
    # Hand 2: Eve (seat 0, not dealing) self-draws 1 台; dealer Ben at streak 0 (extra 1) pays
    # 100 + 20 × 2 = 140, Cat and Dan 100 + 20 = 120 each.
    second = table.get("/hands/2")
    assert (second["dealer"], second["streak"]) == ("Ben", 0)
    assert second["payments"] == {"Eve": 380, "Ben": -140, "Cat": -120, "Dan": -120}
    assert table.totals() == {"Amy": -140, "Ben": 0, "Cat": -120, "Dan": -120, "Eve": 380}
    assert_matches_replay(app, table)


def test_a_correction_must_name_players_seated_at_that_hand(client):
    table = Table(client)
    table.hands_ok(self_draw("Amy", 2))
    table.seat(0, "Eve")
    table.hands_ok(DRAW)
    before = table.snapshot()
    response = table.correct(1, self_draw("Eve", 2))  # Eve was not at the table yet
    assert_rejected(response, "winners[0].player", "hand 1:", "Amy, Ben, Cat, Dan")
    assert table.snapshot() == before


def test_the_hands_list_shows_who_sat_at_each_hand(client):
    table = Table(client)
    table.hands_ok(DRAW)
    table.seat(3, "Eve")
    table.hands_ok(DRAW)
    assert [h["state"]["seats"] for h in table.hands()] == [["Amy", "Ben", "Cat", "Dan"],
                                                            ["Amy", "Ben", "Cat", "Eve"]]
