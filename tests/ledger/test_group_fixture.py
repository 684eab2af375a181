"""The hand-worked group of six (fixtures/group_six.json) through the pure statistics.

Each evening is recorded the way the API records it: its bodies replayed
through `ledger.recorder.Recorder`, voids and corrections applied (as
`api.recording.replay` does), so `evening_figures` reads real stored results.
Every number asserted comes from the fixture's notes, worked out by hand.
"""
import dataclasses
import datetime
import json
from pathlib import Path

import pytest

from ledger.figures import RecordedEvening, EveningRef, evening_figures, member_page, standings, total
from ledger.recorder import HAND, SEAT, Event, Recorder
from ledger.settlement import settle

FIXTURE = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "group_six.json").read_text("utf-8"))
MERGED = {"Faye": "Fay"}  # the merge at the end of the fixture: member names stand for member ids here
MEMBERS = sorted({MERGED.get(name, name) for name in FIXTURE["members"]})


def final_events(key: str) -> list[tuple[str, dict, bool]]:
    """The evening's entries as they end up: (kind, body, void), voids and corrections of `steps` applied."""
    events = [(SEAT, event["seat"], False) if "seat" in event else (HAND, event["hand"], False)
              for event in FIXTURE["evenings"][key]["events"]]
    numbers = [index for index, (kind, _, _) in enumerate(events) if kind == HAND]
    for step in FIXTURE["steps"]:
        for change in ("void", "correct"):
            if change in step and step[change]["evening"] == key:
                index = numbers[step[change]["number"] - 1]
                kind, body, _ = events[index]
                if change == "void":
                    events[index] = (kind, body, True)
                else:
                    events[index] = (kind, FIXTURE["evenings"][key][step[change]["body"]], False)
    return events


def recorded(key: str, events: list[tuple[str, dict, bool]] | None = None) -> RecordedEvening:
    """The evening as the server stores it: each entry with its replayed result."""
    evening = FIXTURE["evenings"][key]
    events = final_events(key) if events is None else events
    numbered, number = [], 0
    for kind, body, void in events:
        number += kind == HAND
        numbered.append(Event(kind, body, void, number if kind == HAND else None))
    recorder, results = Recorder.replay(evening["ruleset"], evening["players"], evening["stakes"], {}, numbered)
    entries = [{"kind": event.kind, "number": event.number, "body": event.body, "void": event.void,
                "result": result} for event, result in zip(numbered, results)]
    return RecordedEvening(key, evening["name"], datetime.date.fromisoformat(evening["day"]), evening["ruleset"],
                   entries, recorder.totals)


EVENINGS = {key: recorded(key) for key in FIXTURE["evenings"]}


def member_rows() -> list[tuple[str, object, object]]:
    """(member, evening, figures) for every player of every evening, names mapped to members after the merge."""
    return [(MERGED.get(name, name), evening, figures) for evening in EVENINGS.values()
            for name, figures in evening_figures(evening).items()]


@pytest.mark.parametrize("key", list(FIXTURE["evenings"]))
def test_each_evening_ends_with_its_hand_worked_totals(key):
    assert EVENINGS[key].totals == FIXTURE["evenings"][key]["totals"]
    figures = evening_figures(EVENINGS[key])
    assert {name: f.net for name, f in figures.items()} == FIXTURE["evenings"][key]["totals"]


def test_the_evening_before_its_correction_had_the_totals_the_payment_settled():
    before = [(kind, FIXTURE["evenings"]["e3"]["events"][index]["hand"], void)
              for index, (kind, _, void) in enumerate(final_events("e3"))]
    assert recorded("e3", before).totals == FIXTURE["evenings"]["e3"]["totals_before_correction"]


def test_balances_and_the_fewest_transfers_after_the_payments_and_the_merge():
    balances = dict.fromkeys(MEMBERS, 0)
    for member, _, figures in member_rows():
        balances[member] += figures.net
    assert balances == FIXTURE["expect"]["evening_totals_by_member"]
    for step in FIXTURE["steps"]:
        if "payment" in step:
            payment = step["payment"]
            balances[MERGED.get(payment["from"], payment["from"])] += payment["amount"]
            balances[MERGED.get(payment["to"], payment["to"])] -= payment["amount"]
    assert balances == FIXTURE["expect"]["balances"]
    assert [t.to_dict() for t in settle(balances).transfers] == FIXTURE["expect"]["transfers"]


def test_standings_rows_are_the_hand_worked_rows():
    names = {member: member for member in MEMBERS}
    rows = standings([(member, figures) for member, _, figures in member_rows()], names)
    assert rows == FIXTURE["expect"]["standings"]


def test_min_evenings_leaves_out_members_with_fewer_evenings():
    names = {member: member for member in MEMBERS}
    rows = standings([(member, figures) for member, _, figures in member_rows()], names, min_evenings=4)
    assert [row["member"] for row in rows] == ["Cat", "Amy", "Dan"]  # four evenings each; the others three


def test_fays_page_carries_fayes_evening_after_the_merge():
    names = {member: member for member in MEMBERS}
    rows = [(EveningRef(evening.id, evening.name, evening.day, evening.ruleset),
             _mapped(figures)) for member, evening, figures in reversed(member_rows()) if member == "Fay"]
    page = member_page(rows, "Fay", names, aliases=["Faye"])
    expected = FIXTURE["expect"]["member_page_fay"]
    assert page["member"] == {"id": "Fay", "name": "Fay", "aliases": ["Faye"]}
    assert page["series"] == expected["series"]
    assert page["head_to_head"] == expected["head_to_head"]
    assert {ruleset: row["net"] for ruleset, row in page["by_ruleset"].items()} == expected["by_ruleset_net"]
    assert page["overall"] == FIXTURE["expect"]["standings"][0]


def test_cats_patterns_come_from_the_one_hand_entered_with_tiles():
    rows = [(EveningRef(evening.id, evening.name, evening.day, evening.ruleset), figures)
            for member, evening, figures in member_rows() if member == "Cat"]
    page = member_page(rows, "Cat", {"Cat": "Cat"})
    assert page["patterns"] == FIXTURE["expect"]["member_page_cat_patterns"]
    assert (page["full_hands"], page["full_wins"]) == (1, 1)


def test_every_evening_of_the_group_sums_to_zero_and_against_to_net():
    for evening in EVENINGS.values():
        figures = evening_figures(evening)
        assert sum(f.net for f in figures.values()) == 0
        for one in figures.values():
            assert sum(one.against.values()) == one.net
    assert total(f for _, _, f in member_rows()).net == 0


def _mapped(figures):
    """`against` keyed by member (Faye's opponents never include Fay, so only names that are members)."""
    return dataclasses.replace(figures, against={MERGED.get(k, k): v for k, v in figures.against.items()})
