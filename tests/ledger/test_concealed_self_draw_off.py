"""門清一摸三 / 門清自摸 switched off mid-evening (RULES.md R3, R8, §8): the evenings worked by hand.

``fixtures/evening_concealed_self_draw_off_{taiwan,taiwan_zz}.json`` switch the
pattern off from hand 3, with a concealed self-draw before the change and two
after it, a 門清 win on a discard and an open self-draw; every payment is
worked out in the fixture's ``why``. The API tests
(``tests/api/sessions/test_concealed_self_draw_off_api.py``) post the same files.
"""
import json
from pathlib import Path

import pytest

from ledger.entries import HAND, RULES
from ledger.recorder import Event, Recorder

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EVENINGS = ["evening_concealed_self_draw_off_taiwan.json", "evening_concealed_self_draw_off_taiwan_zz.json"]


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def hands(evening):
    return [entry for entry in evening["events"] if "hand" in entry]


@pytest.mark.parametrize("name", EVENINGS)
def test_the_evening_switches_the_pattern_off_from_its_third_hand_around_concealed_self_draws(name):
    evening = load(name)
    changes = [(index, entry) for index, entry in enumerate(evening["events"]) if "house_rules" in entry]
    assert [(index, entry["from_hand"], entry["house_rules"]) for index, entry in changes] == [
        (2, 3, {"off": ["concealed_self_draw"]})]
    concealed_self_draws = [number for number, entry in enumerate(hands(evening), start=1)
                            if entry["hand"]["by"] == "self_draw" and "hand" in entry["hand"]["winners"][0]
                            and "melds" not in entry["hand"]["winners"][0]["hand"]]
    assert concealed_self_draws == [1, 3, 6]  # before the change and after it
    assert all(entry["why"] for entry in evening["events"])


@pytest.mark.parametrize("name", EVENINGS)
def test_each_hand_is_paid_as_worked_by_hand_and_the_patterns_follow_the_rules_in_force(name):
    evening = load(name)
    recorder = Recorder.start(evening["ruleset"], evening["players"], evening["stakes"], evening["options"],
                              evening["house_rules"])
    listed = []
    for entry in evening["events"]:
        if "house_rules" in entry:
            recorder.record(RULES, entry["house_rules"])
            continue
        result = recorder.record(HAND, entry["hand"])
        assert result["payments"] == entry["payments"], entry["why"]
        score = result["scores"][0]["score"]
        listed.append(score and {pattern["id"] for pattern in score["patterns"]} & {
            "concealed", "self_draw", "concealed_self_draw"})
    assert recorder.totals == evening["totals"]
    # 1: on, concealed self-draw; 2: quick; from 3 off: self-draw, discard, open self-draw, dealer's self-draw
    assert listed == [{"concealed_self_draw"}, None, {"concealed", "self_draw"}, {"concealed"}, {"self_draw"},
                      {"concealed", "self_draw"}]


@pytest.mark.parametrize("name", EVENINGS)
def test_a_replay_of_the_evening_pays_the_same(name):
    evening = load(name)
    replay_events, number = [], 0
    for entry in evening["events"]:
        if "house_rules" in entry:
            replay_events.append(Event(RULES, entry["house_rules"], False))
        else:
            number += 1
            replay_events.append(Event(HAND, entry["hand"], False, number))
    recorder, results = Recorder.replay(evening["ruleset"], evening["players"], evening["stakes"],
                                        evening["options"], replay_events, evening["house_rules"])
    assert [result["payments"] for result, event in zip(results, replay_events) if event.kind == HAND] == [
        entry["payments"] for entry in hands(evening)]
    assert recorder.totals == evening["totals"]
