"""The hand-worked competition of twelve over three rounds (fixtures/competition_twelve.json) through the ledger.

Every draw, sit-out and standing asserted is the fixture's, worked out by hand in its notes: Cat withdraws
after round 1, three sit out in rounds 2 and 3 (those who sat out least, lowest placed first), and a
correction at a table of round 2 after that round ended moves the standings before round 3 is drawn.
"""
import json
import random
from fractions import Fraction
from pathlib import Path

from ledger.competition import Entrant, Settings, TableResult, seat_round, rank_entrants

FIXTURE = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "competition_twelve.json")
                     .read_text("utf-8"))
NAMES = FIXTURE["entrants"]
NUMBER = {name: index for index, name in enumerate(NAMES, start=1)}
RULES = Settings(rounds=3, placement_points=(4, 2, 1, 0))


def rows(found) -> list[list]:
    return [[NAMES[row.entrant - 1], row.rank, str(row.points), row.net] for row in found]


def results(number: int, drawn, nets: list[dict]) -> list[TableResult]:
    return [TableResult(number, table.number, table.seats, {NUMBER[name]: net for name, net in played.items()}, 1)
            for table, played in zip(drawn.tables, nets)]


def test_the_seed_shuffles_as_the_notes_say():
    order = list(range(1, 13))
    random.Random(FIXTURE["seeds"][0]).shuffle(order)
    assert order == FIXTURE["shuffle"]


def test_the_twelve_are_drawn_and_ranked_as_worked_by_hand():
    entrants = [Entrant(number, name) for name, number in NUMBER.items()]
    drawn, played = [], []
    for number, (seed, worked) in enumerate(zip(FIXTURE["seeds"], FIXTURE["rounds"]), start=1):
        entrants = [Entrant(e.number, e.name, withdrawn_from=number) if e.name in worked["withdraw"] else e
                    for e in entrants]
        ranked = [row.entrant for row in rank_entrants(entrants, drawn, played, RULES)]
        this = seat_round(number, seed, RULES, entrants, drawn, ranked)
        assert [[NAMES[n - 1] for n in table.seats] for table in this.tables] == worked["tables"]
        assert [NAMES[n - 1] for n in this.sitting_out] == worked["sitting_out"]
        drawn.append(this)
        played += results(number, this, worked["nets"])
        assert rows(rank_entrants(entrants, drawn, played, RULES)) == worked["standings"]
        if "correction" in worked:
            table = worked["correction"]["table"]
            played = [TableResult(r.round, r.table, r.seats, {NUMBER[name]: net for name, net in
                                                               worked["correction"]["nets"].items()}, r.hands)
                      if (r.round, r.table) == (number, table) else r for r in played]
            assert rows(rank_entrants(entrants, drawn, played, RULES)) == worked["corrected"]


def played_through() -> tuple[list[Entrant], list, list[TableResult]]:
    """The fixture's three rounds drawn and played as its notes say, the correction of round 2 made: the
    entrants, the rounds drawn and the tables' results (tests/reports/test_competition_reports.py reads them)."""
    entrants = [Entrant(number, name) for name, number in NUMBER.items()]
    drawn, played = [], []
    for number, (seed, worked) in enumerate(zip(FIXTURE["seeds"], FIXTURE["rounds"]), start=1):
        entrants = [Entrant(e.number, e.name, withdrawn_from=number) if e.name in worked["withdraw"] else e
                    for e in entrants]
        ranked = [row.entrant for row in rank_entrants(entrants, drawn, played, RULES)]
        drawn.append(seat_round(number, seed, RULES, entrants, drawn, ranked))
        played += results(number, drawn[-1], worked["nets"])
        if "correction" in worked:
            nets = {NUMBER[name]: net for name, net in worked["correction"]["nets"].items()}
            played = [TableResult(r.round, r.table, r.seats, nets, r.hands)
                      if (r.round, r.table) == (number, worked["correction"]["table"]) else r for r in played]
    return entrants, drawn, played


def test_an_entrants_history_names_tables_opponents_and_sit_outs():
    entrants, drawn, played = played_through()
    fay = next(row for row in rank_entrants(entrants, drawn, played, RULES) if row.name == "Fay")
    lines = [(line.round, line.table, line.wind, [NAMES[n - 1] for n in line.opponents], line.net, line.points,
              line.sat_out) for line in fay.rounds]
    assert lines == [(1, 3, "W", ["Jay", "Ivy", "Ben"], -250, Fraction(1, 2), False),
                     (2, None, None, [], 0, Fraction(0), True),
                     (3, 1, "S", ["Eve", "Amy", "Jay"], 100, Fraction(7, 3), False)]
    cat = next(row for row in rank_entrants(entrants, drawn, played, RULES) if row.name == "Cat")
    assert (cat.withdrawn, len(cat.rounds), cat.rank) == (True, 1, 9)
