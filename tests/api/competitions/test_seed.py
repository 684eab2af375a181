"""A draw's seed through the API (API.md: Competitions, issue 38): a string of decimal digits both ways.

A browser's JSON number keeps 15-17 significant digits, so 7571865187093097242 read as a number comes back
7571865187093097000 and draws other tables: the seed goes in and comes out as a string, whole. Round 1 of 8
entrants, none of whom has met, is their order by ``random.Random(seed).shuffle`` of the entrant numbers in
four-seat slices, each in 東, 南, 西, 北 order (ledger/draw.py: no repeat and no wind to spare, the first
tables in order).
"""
import random

import pytest

from tests.api.competitions.test_competitions import NAMES, ZH_HANT, entered

LONG = "7571865187093097242"
MAX_SEED = "9223372036854775807"  # 2**63 - 1: a BIGINT


def tables_of(seed: int) -> list[list[str]]:
    order = list(range(1, 9))
    random.Random(seed).shuffle(order)
    return [[NAMES[n - 1] for n in order[:4]], [NAMES[n - 1] for n in order[4:]]]


def test_a_long_seed_goes_in_and_comes_out_whole_and_draws_its_own_tables(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"seed": LONG}), 201)
    assert drawn["seed"] == LONG
    assert [table["seats"] for table in drawn["tables"]] == tables_of(7571865187093097242)
    assert tables_of(7571865187093097242) != tables_of(7571865187093097000)  # the seed a Number shows
    assert cup.ok(cup.get())["drawn"][0]["seed"] == LONG
    draw_line = next(line for line in cup.ok(cup.get("/audit", level="organizer")) if line["action"] == "draw")
    assert draw_line["after"]["seed"] == LONG


def test_the_largest_seed_and_a_whole_number_are_read(client):
    largest = entered(client, NAMES[:8])
    assert largest.ok(largest.post("/rounds", {"seed": MAX_SEED}), 201)["seed"] == MAX_SEED
    number = entered(client, NAMES[:8])
    drawn = number.ok(number.post("/rounds", {"seed": 7}), 201)
    assert drawn["seed"] == "7" and [table["seats"] for table in drawn["tables"]] == tables_of(7)


def test_a_drawn_seed_is_a_string_of_digits(client):
    cup = entered(client, NAMES[:8])
    seed = cup.ok(cup.post("/rounds"), 201)["seed"]
    assert isinstance(seed, str) and seed.isdigit() and int(seed) <= int(MAX_SEED)


@pytest.mark.parametrize("seed", ["12a", "-1", "", " 7", "7.0", "9223372036854775808", "٣", 1.5, True, -1, ["7"]])
def test_a_seed_that_is_no_string_of_digits_is_refused_and_nothing_drawn(client, seed):
    cup = entered(client, NAMES[:8])
    refused = cup.post("/rounds", {"seed": seed}, extra=ZH_HANT)
    assert refused.status_code == 422
    assert refused.get_json()["message"] == f"請求無效：seed: 種子須是十進位數字的字串，從 0 到 {MAX_SEED}。"
    assert cup.ok(cup.get())["drawn"] == []
