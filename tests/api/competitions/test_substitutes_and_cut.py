"""Substitutes (替補) and a cut through the HTTP API, on SQLite and PostgreSQL: what tests/ledger/test_competition.py
holds of ``ledger.competition`` alone, as the API exposes it (API.md: Competitions): ``"empty_seats":
"substitutes"`` in the create body, ``"substitute": true`` when entering names, ``{"cut": N}`` in the rounds body.

Round 1 is drawn in the order of its seed: the entrant numbers 1 to n (registration order, substitutes too)
shuffled by ``random.Random(seed).shuffle`` (API.md), which for 1 to 8 gives

- seed 7: [7, 8, 3, 5, 1, 4, 2, 6];
- seed 3: [1, 6, 8, 3, 2, 7, 5, 4].

With no history every seating is as good (no pair has met, no wind is sat more than another), so the draw keeps
the order: table 1 the first four, table 2 the next four, each seated 東 南 西 北 in that order (ledger/draw.py:
the earliest partition and the first permutation of least wind excess). Substitutes are not drawn by the seed:
they come after the entrants, as many as fill the last table, those who filled in least first, then the first
registered (ledger/competition.py, ``players_of_round``).

Amounts (Taiwanese 100 底 / 20 per 台, quick entry, a win on a discard, the dealer not involved): 1 台 is 120,
2 台 140, 3 台 160, from the discarder. Placement points 4/2/1/0; tied seats share the points of the places
they cover.
"""
import random

from tests.api.competitions.test_competitions import ZH_HANT, entered
from tests.api.sessions.tables import discard

ENTRANTS = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay"]
SUBSTITUTES = ["Sam", "Sue"]
EIGHT = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def seed_order(seed, count):
    """The seed's order of entrants 1 to ``count``, as API.md defines it (checked against the docstring's)."""
    order = list(range(1, count + 1))
    random.Random(seed).shuffle(order)
    return order


def record(client, table, *hands):
    """Record ``hands`` at a drawn table with its own write token; each answer's payments."""
    paid = []
    for hand in hands:
        answer = client.post(f"/api/sessions/{table['session']}/hands", json=hand,
                             headers={"Authorization": f"Bearer {table['token']}"})
        assert answer.status_code == 201, answer.get_json()
        paid.append(answer.get_json()["payments"])
    return paid


def ranked(cup):
    return [(row["name"], row["rank"], row["points_exact"], row["net"]) for row in cup.ok(cup.get("/standings"))]


def test_substitutes_fill_the_last_table_and_their_results_count_for_no_entrant(client):
    """Six entrants (1 Amy … 6 Fay) and two substitutes (7 Sam, 8 Sue); seed 7.

    The seed's order [7, 8, 3, 5, 1, 4, 2, 6] without the substitutes is Cat, Eve, Amy, Dan, Ben, Fay: six, two
    short of two tables, so the two substitutes fill in (none has filled in yet: Sam, then Sue). Table 1: 東 Cat,
    南 Eve, 西 Amy, 北 Dan; table 2: 東 Ben, 南 Fay, 西 Sam, 北 Sue.

    Table 1: Eve (南) wins 3 台 on Amy's (西) discard: Eve +160, Amy −160, Cat and Dan 0. Places: Eve 1st, 4
    points; Cat and Dan share 2nd–3rd, (2 + 1) / 2 = 3/2 each; Amy 4th, 0.
    Table 2: Sam (西, a substitute) wins 3 台 on Fay's (南) discard: Sam +160, Fay −160, Ben and Sue 0. Sam takes
    the 1st place and its 4 points, which go to nobody; Ben shares 2nd–3rd with Sue: 3/2; Fay 0.

    Standings of the six entrants (Sam and Sue are not in them): Eve 4, +160, 1st; Ben, Cat, Dan 3/2 and 0, 2nd
    together (equals listed by entrant number); Amy and Fay 0 and −160, 5th together. The entrants' nets add up
    to −160: the substitute's +160 is counted for no entrant.
    """
    cup = entered(client, ENTRANTS, rounds=1, empty_seats="substitutes")
    subs = cup.ok(cup.post("/entrants", {"names": SUBSTITUTES, "substitute": True}), 201)["entrants"]
    assert [(s["entrant"], s["name"], s["substitute"]) for s in subs] == [(7, "Sam", True), (8, "Sue", True)]
    assert cup.created["empty_seats"] == "substitutes"
    assert seed_order(7, 8) == [7, 8, 3, 5, 1, 4, 2, 6]
    drawn = cup.ok(cup.post("/rounds", {"seed": 7}), 201)
    assert [table["seats"] for table in drawn["tables"]] == [["Cat", "Eve", "Amy", "Dan"],
                                                             ["Ben", "Fay", "Sam", "Sue"]]
    assert drawn["sitting_out"] == []
    first, second = drawn["tables"]
    assert record(client, first, discard("Eve", "Amy", 3))[0] == {"Cat": 0, "Eve": 160, "Amy": -160, "Dan": 0}
    assert record(client, second, discard("Sam", "Fay", 3))[0] == {"Ben": 0, "Fay": -160, "Sam": 160, "Sue": 0}

    assert ranked(cup) == [("Eve", 1, "4", 160), ("Ben", 2, "3/2", 0), ("Cat", 2, "3/2", 0), ("Dan", 2, "3/2", 0),
                           ("Amy", 5, "0", -160), ("Fay", 5, "0", -160)]
    ben = {row["name"]: row for row in cup.ok(cup.get("/standings"))}["Ben"]
    assert ben["rounds"] == [{"round": 1, "table": 2, "wind": "E", "opponents": ["Fay", "Sam", "Sue"], "net": 0,
                              "place": "5/2", "points": 1.5, "points_exact": "3/2", "played": True,
                              "sat_out": False}]


def test_a_draw_short_of_substitutes_is_refused_in_the_readers_language(client):
    """Six entrants and one substitute: two seats to fill, one substitute: refused (422), nothing drawn."""
    cup = entered(client, ENTRANTS, rounds=1, empty_seats="substitutes")
    cup.ok(cup.post("/entrants", {"names": ["Sam"], "substitute": True}), 201)
    refused = cup.post("/rounds", {"seed": 7}, extra=ZH_HANT)
    assert refused.status_code == 422 and refused.get_json()["field"] == "entrants"
    assert refused.get_json()["message"] == "要補 2 個空位，但只有 1 位替補：請先登記更多替補。"
    assert cup.ok(cup.get())["drawn"] == []


def test_a_cut_seats_only_the_top_of_the_standings_in_the_next_round(client):
    """Eight entrants (1 Amy … 8 Hal), seed 3: [1, 6, 8, 3, 2, 7, 5, 4]. Table 1: 東 Amy, 南 Fay, 西 Hal, 北 Cat;
    table 2: 東 Ben, 南 Gus, 西 Eve, 北 Dan.

    Table 1: Fay (南) wins 3 台 on Hal's discard, 160; the deal passes to Fay, and Cat (北) wins 1 台 on Hal's
    discard, 120. Nets: Fay +160, Cat +120, Amy 0, Hal −280; points 4, 2, 1, 0.
    Table 2: Gus (南) wins 2 台 on Eve's discard, 140; the deal passes to Gus, and Dan (北) wins 1 台 on Ben's
    discard, 120. Nets: Gus +140, Dan +120, Ben −120, Eve −140; points 4, 2, 1, 0.

    Standings after round 1: Fay (4, +160) 1st; Gus (4, +140) 2nd; Cat and Dan (2, +120) 3rd together, Cat
    first (entrant 3 before 4); Amy (1, 0) 5th; Ben (1, −120) 6th; Eve (0, −140) 7th; Hal (0, −280) 8th.

    Round 2 with a cut of 4: Fay, Gus, Cat, Dan play, one table; Amy, Ben, Eve and Hal are cut (in standings
    order), none sits out. The four are one table whatever the draw (Fay and Cat meet again, and Gus and Dan):
    only the winds are chosen. Fay and Gus sat 南, Cat and Dan 北: in the order Fay, Gus, Cat, Dan, the first
    assignment of winds (東 南 西 北 numbered 0 to 3, permutations in order) that seats each in a wind they have
    not sat is Fay 東, Gus 北, Cat 南, Dan 西 ((0, 1, …), (0, 2, 1, 3) and (0, 2, 3, 1) each put someone in a wind
    sat before). Seats 東 南 西 北: Fay, Cat, Dan, Gus.

    Round 2: Dan (西) wins 3 台 on Gus's (北) discard, the dealer Fay not involved: Dan +160, Gus −160; Dan 4
    points, Fay and Cat 3/2 each, Gus 0. Totals: Dan 2 + 4 = 6, +280; Fay 4 + 3/2 = 11/2, +160; Gus 4 + 0 = 4,
    −20; Cat 2 + 3/2 = 7/2, +120; the four cut keep round 1's: Amy 1, Ben 1, Eve 0, Hal 0. Every total differs,
    so the ranks run 1 to 8.
    """
    cup = entered(client, EIGHT, rounds=2)
    assert seed_order(3, 8) == [1, 6, 8, 3, 2, 7, 5, 4]
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    first, second = drawn["tables"]
    assert (first["seats"], second["seats"]) == (["Amy", "Fay", "Hal", "Cat"], ["Ben", "Gus", "Eve", "Dan"])
    assert [paid["Hal"] for paid in record(client, first, discard("Fay", "Hal", 3), discard("Cat", "Hal", 1))] \
        == [-160, -120]
    assert [paid["Ben"] for paid in record(client, second, discard("Gus", "Eve", 2), discard("Dan", "Ben", 1))] \
        == [0, -120]
    assert ranked(cup) == [("Fay", 1, "4", 160), ("Gus", 2, "4", 140), ("Cat", 3, "2", 120), ("Dan", 3, "2", 120),
                           ("Amy", 5, "1", 0), ("Ben", 6, "1", -120), ("Eve", 7, "0", -140), ("Hal", 8, "0", -280)]
    cup.ok(cup.post("/rounds/1/end"))

    too_small = cup.post("/rounds", {"cut": 3})
    assert too_small.status_code == 422 and too_small.get_json()["field"] == "cut"
    cut = cup.ok(cup.post("/rounds", {"cut": 4}), 201)
    assert [table["seats"] for table in cut["tables"]] == [["Fay", "Cat", "Dan", "Gus"]]
    assert (cut["cut"], cut["sitting_out"]) == (["Amy", "Ben", "Eve", "Hal"], [])
    assert cup.ok(cup.get())["drawn"][1]["cut"] == ["Amy", "Ben", "Eve", "Hal"]
    assert record(client, cut["tables"][0], discard("Dan", "Gus", 3))[0] == {"Fay": 0, "Cat": 0, "Dan": 160,
                                                                             "Gus": -160}

    assert ranked(cup) == [("Dan", 1, "6", 280), ("Fay", 2, "11/2", 160), ("Gus", 3, "4", -20),
                           ("Cat", 4, "7/2", 120), ("Amy", 5, "1", 0), ("Ben", 6, "1", -120), ("Eve", 7, "0", -140),
                           ("Hal", 8, "0", -280)]
    rounds = {row["name"]: [line["round"] for line in row["rounds"]] for row in cup.ok(cup.get("/standings"))}
    assert rounds == {**{name: [1, 2] for name in ("Fay", "Gus", "Cat", "Dan")},
                      **{name: [1] for name in ("Amy", "Ben", "Eve", "Hal")}}
