"""A competition's rules one at a time (``ledger.competition``): who plays, substitutes, a cut, late entrants,
ranking by net money, a table not yet played, and settings refused. Values worked by hand."""
from fractions import Fraction

import pytest

from ledger.competition import Entrant, Round, Settings, TableResult, seat_round, placements, players_of_round, rank_entrants
from ledger.draw import Seating
from ledger.errors import InvalidRequest, Worded


def people(count: int, **extra) -> list[Entrant]:
    return [Entrant(n, f"P{n}", **extra) for n in range(1, count + 1)]


def test_tied_seats_share_the_points_of_the_places_they_cover():
    assert placements([0, 0, 0, 0], (4, 2, 1, 0)) == [(Fraction(5, 2), Fraction(7, 4))] * 4
    assert placements([100, 0, 0, -100], (4, 2, 1, 0))[1:3] == [(Fraction(5, 2), Fraction(3, 2))] * 2
    assert placements([100, 0, 0, -100], (3, 1, 0, 0))[2] == (Fraction(5, 2), Fraction(1, 2))


def test_substitutes_fill_the_last_table_those_who_filled_in_least_first():
    entrants = people(6) + [Entrant(7, "S1", substitute=True), Entrant(8, "S2", substitute=True),
                            Entrant(9, "S3", substitute=True)]
    assert players_of_round(1, entrants, list(range(1, 10)), [], "substitutes") == ([1, 2, 3, 4, 5, 6, 7, 8], [], [])
    earlier = [Round(1, 0, (Seating(1, (1, 2, 3, 4)), Seating(2, (5, 6, 7, 8))))]
    assert players_of_round(2, entrants, list(range(1, 10)), earlier, "substitutes")[0][-2:] == [9, 7]
    with pytest.raises(Worded) as refused:
        players_of_round(1, people(5) + [Entrant(6, "S1", substitute=True)], list(range(1, 7)), [], "substitutes")
    assert (refused.value.key, refused.value.values) == ("too_few_substitutes", {"needed": 3, "count": 1})


def test_a_substitutes_results_count_for_nobody_but_take_their_place():
    entrants = people(3) + [Entrant(4, "Sub", substitute=True)]
    drawn = [Round(1, 0, (Seating(1, (1, 2, 3, 4)),))]
    found = rank_entrants(entrants, drawn, [TableResult(1, 1, (1, 2, 3, 4), {1: 100, 2: -300, 3: 0, 4: 200}, 3)],
                      Settings(rounds=1))
    assert [(row.name, row.points, row.net) for row in found] == [("P1", 2, 100), ("P3", 1, 0), ("P2", 0, -300)]


def test_a_cut_keeps_the_top_and_sits_out_by_rule_within_it():
    entrants = people(10)
    assert players_of_round(2, entrants, [3, 1, 4, 5, 9, 2, 6, 8, 7, 10], [], "sit_out", cut=6) == (
        [3, 1, 4, 5], [9, 2], [6, 8, 7, 10])
    with pytest.raises(Worded):
        players_of_round(2, entrants, list(range(1, 11)), [], "sit_out", cut=3)


def test_a_late_entrant_plays_from_their_first_round_and_a_withdrawn_one_no_more():
    entrants = people(7) + [Entrant(8, "Late", first_round=2)]
    assert players_of_round(1, entrants, list(range(1, 9)), [], "sit_out") == ([1, 2, 3, 4], [5, 6, 7], [])
    entrants[0] = Entrant(1, "P1", withdrawn_from=2)
    assert players_of_round(2, entrants, list(range(1, 9)), [], "sit_out") == ([2, 3, 4, 5], [6, 7, 8], [])


def test_ranking_by_net_alone_and_a_table_without_hands_counts_nothing_yet():
    entrants = people(8)
    drawn = [Round(1, 0, (Seating(1, (1, 2, 3, 4)), Seating(2, (5, 6, 7, 8))))]
    played = [TableResult(1, 1, (1, 2, 3, 4), {1: 50, 2: 50, 3: -40, 4: -60}, 2),
              TableResult(1, 2, (5, 6, 7, 8), {}, 0)]
    found = rank_entrants(entrants, drawn, played, Settings(rounds=1, placement_points=None))
    assert [(row.entrant, row.rank, row.net) for row in found] == [
        (1, 1, 50), (2, 1, 50), (5, 3, 0), (6, 3, 0), (7, 3, 0), (8, 3, 0), (3, 7, -40), (4, 8, -60)]
    assert found[2].rounds[0].played is False and found[2].rounds[0].place is None


def test_random_seating_draws_every_round_from_its_seed():
    rules = Settings(rounds=2, seating="random")
    first = seat_round(1, 5, rules, people(8), [], [])
    again = seat_round(1, 5, rules, people(8), [], [])
    assert first == again
    second = seat_round(2, 6, rules, people(8), [first], [1, 2, 3, 4, 5, 6, 7, 8])
    assert {frozenset(t.seats) for t in second.tables} != {frozenset(range(1, 5)), frozenset(range(5, 9))}


@pytest.mark.parametrize("settings, field", [
    ({"rounds": 0}, "rounds"), ({"rounds": 31}, "rounds"), ({"rounds": 2, "until": "time"}, "round.minutes"),
    ({"rounds": 2, "until": "dawn"}, "round.until"), ({"rounds": 2, "minutes": 0}, "round.minutes"),
    ({"rounds": 2, "grace": -1}, "round.grace"), ({"rounds": 2, "placement_points": (1, 2, 3, 4)},
                                                 "ranking.placement_points"),
    ({"rounds": 2, "placement_points": (4, 2, 1)}, "ranking.placement_points"),
    ({"rounds": 2, "seating": "by age"}, "seating"), ({"rounds": 2, "empty_seats": "bots"}, "empty_seats")])
def test_settings_that_make_no_competition_are_refused_naming_the_field(settings, field):
    with pytest.raises(InvalidRequest) as refused:
        Settings(**settings)
    assert refused.value.field == field
