"""Replay the hand-worked evenings of fixtures/ over HTTP: every payment, state, reject and total.

Each fixture (taiwan, shanghai with 荒番 dice and 三口, and a taiwan evening
with two substitutions and a return) lists the request bodies with what each
must return, worked out by hand in its "why".
"""
import json
from pathlib import Path

import pytest

from tests.api.sessions.tables import Table, assert_matches_replay, assert_rejected

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
EVENINGS = ["evening_taiwan.json", "evening_shanghai.json", "evening_substitutes.json"]


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def open_table(client, evening):
    return Table(client, ruleset=evening["ruleset"], players=evening["players"], stakes=evening["stakes"],
                 options=evening["options"], name=evening["name"])


def post(table, event):
    if "seat" in event:
        return table.seat(event["seat"]["seat"], event["seat"]["player"])
    return table.hand(event["hand"])


def check_event(table, event):
    response = post(table, event)
    if "reject" in event:
        assert_rejected(response, event["reject"]["field"], *event["reject"]["message_contains"])
        return
    assert response.status_code == 201, (event, response.get_json())
    actual, expected = response.get_json(), event["expect"]
    for key, value in expected.items():
        if key == "state":
            assert {k: actual["state"][k] for k in value} == value, event
        else:
            assert actual[key] == value, (key, event)


@pytest.mark.parametrize("name", EVENINGS)
def test_the_evening_over_http_gives_every_payment_and_the_totals(app, client, name):
    evening = load(name)
    table = open_table(client, evening)
    for event in evening["events"]:
        before = table.snapshot() if "reject" in event else None
        check_event(table, event)
        if before is not None:
            assert table.snapshot() == before
    session = table.session()
    assert session["totals"] == evening["totals"]
    assert list(session["totals"]) == list(evening["totals"])
    played = [e for e in evening["events"] if "hand" in e and "reject" not in e]
    assert [h["number"] for h in table.hands()] == list(range(1, len(played) + 1))
    assert_matches_replay(app, table)


def test_the_substitutes_evening_after_voiding_hand_2_replays_across_the_substitution(app, client):
    evening = load("evening_substitutes.json")
    table = open_table(client, evening)
    for event in evening["events"]:
        post(table, event)
    assert table.void(2).status_code == 200
    # Worked by hand: Eve inherits Amy's deal at streak 1, not 2, so hand 3 costs Dan 80 (was 100) and
    # in hand 4 Eve pays 130 (was 150); everything from the 將 onwards follows.
    assert table.totals() == {"Amy": 260, "Ben": -220, "Cat": -160, "Dan": -130, "Eve": -50, "Fay": 300}
    state = table.session()["state"]
    assert (state["dealer"], state["streak"], state["hands_played"]) == ("Amy", 1, 12)
    assert_matches_replay(app, table)
