"""ledger.ratings: the game worked by hand in fixtures/group_ratings.json, ties, and who takes part."""
import datetime
import json
from pathlib import Path

import pytest

from ledger.ratings import Game, ordered, rate, ranks

WORKED = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "group_ratings.json")
                    .read_text("utf-8"))["worked_game"]["expect"]
DAY = datetime.date(2026, 11, 27)


def test_the_first_game_from_fresh_ratings_is_the_one_worked_by_hand_from_algorithm_4():
    rated = rate([Game("e1", DAY, {"Amy": 210, "Ben": -70, "Cat": -70, "Dan": -70})])
    for name, worked in (("Amy", WORKED["Amy"]), *((name, WORKED["Ben"]) for name in ("Ben", "Cat", "Dan"))):
        assert (round(rated[name].mu, 4), round(rated[name].sigma, 4)) == (worked["mu"], worked["sigma"])
        assert rated[name].rating == worked["rating"]
        assert rated[name].history == [{"evening": "e1", "date": "2026-11-27", "rating": worked["rating"]}]


def test_equal_nets_share_a_rank_and_move_alike():
    assert ranks({"Amy": 0, "Ben": 50, "Cat": 50, "Dan": -100}) == [3, 1, 1, 4]
    rated = rate([Game("e1", DAY, {"Amy": 100, "Ben": 0, "Cat": 0, "Dan": -100})])
    assert rated["Amy"].mu > rated["Ben"].mu == rated["Cat"].mu > rated["Dan"].mu


def test_a_game_of_one_is_no_game_and_the_order_of_games_matters():
    assert rate([Game("e1", DAY, {"Amy": 0})]) == {}
    one = Game("e1", DAY, {"Amy": 100, "Ben": -100})
    two = Game("e2", DAY, {"Ben": 100, "Cat": -100})
    forward, backward = rate([one, two]), rate([two, one])
    assert forward["Ben"].games == backward["Ben"].games == 2
    assert forward["Cat"].mu != pytest.approx(backward["Cat"].mu)


def test_the_list_is_best_rating_first():
    rated = rate([Game("e1", DAY, {"Amy": 210, "Ben": -70, "Cat": -70, "Dan": -70})])
    rows = ordered(rated, {})
    assert [row["member"] for row in rows] == ["Amy", "Ben", "Cat", "Dan"]
    assert rows[0]["rating"] == 3.0 and rows[0]["games"] == 1
