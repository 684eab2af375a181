"""House rules changed mid-evening (RULES.md §8, ``POST …/house_rules``): the evenings worked by hand.

``fixtures/evening_rules_change_*.json``, one per rule set, change the house
rules at hand 3 (taiwan: dealer extra 1 + 2n → 1 + n at dealer streak 2 and
平胡 3; taiwan_zz: the 詐胡 penalty and 門清自摸 4; shanghai: the 勒子 cap
and 清一色 2 勒). Each then voids a hand and corrects one, on both sides of
the change, and is separately corrected from the start instead (``PUT``);
every payment and total is worked out in the fixture's ``why``. The API tests
(``tests/api/sessions/test_house_rules_changes_api.py``) post the same files.
"""
import json
from pathlib import Path

import pytest

from ledger.entries import HAND, RULES
from ledger.errors import InvalidRequest
from ledger.recorder import Event, Recorder

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EVENINGS = ["evening_rules_change_taiwan.json", "evening_rules_change_taiwan_zz.json",
            "evening_rules_change_shanghai.json"]


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def events(evening, *, void=None, correct=None, put=False):
    """The evening's entries as replay events: hand ``void`` voided, ``correct`` = (number, body), and with
    ``put`` every change made mid-evening voided (a correction from the start replaced it)."""
    out, number = [], 0
    for entry in evening["events"]:
        if "house_rules" in entry:
            out.append(Event(RULES, entry["house_rules"], put))
            continue
        number += 1
        body = correct[1] if correct and correct[0] == number else entry["hand"]
        out.append(Event(HAND, body, number == void, number))
    return out


def replay(evening, rules, replay_events):
    recorder, results = Recorder.replay(evening["ruleset"], evening["players"], evening["stakes"],
                                        evening["options"], replay_events, rules)
    return [result["payments"] for result, event in zip(results, replay_events) if event.kind == HAND], \
        recorder.totals, recorder


@pytest.mark.parametrize("name", EVENINGS)
def test_the_evening_asks_what_the_issue_asks(name):
    evening = load(name)
    changes = [entry for entry in evening["events"] if "house_rules" in entry]
    assert len(changes) == 1 and changes[0]["from_hand"] == 3 and changes[0]["house_rules"]["values"]
    rules = changes[0]["house_rules"]
    wanted = {"taiwan": "dealer_extra", "taiwan_zz": "false_win", "shanghai": "lei_cap"}[evening["ruleset"]]
    assert wanted in rules and not evening["house_rules"]
    void, correct = evening["void"]["number"], evening["correct"]["number"]
    assert (void < 3) != (correct < 3)  # one on each side of the change
    for entry in evening["events"]:
        assert entry["why"]


@pytest.mark.parametrize("name", EVENINGS)
def test_hands_before_a_change_keep_their_rules_and_those_after_use_the_new_ones(name):
    evening = load(name)
    recorder = Recorder.start(evening["ruleset"], evening["players"], evening["stakes"], evening["options"],
                              evening["house_rules"])
    for entry in evening["events"]:
        if "house_rules" in entry:
            result = recorder.record(RULES, entry["house_rules"])
            assert result == {"house_rules": entry["house_rules"], "before": evening["house_rules"],
                              "from_hand": entry["from_hand"]}
        else:
            assert recorder.record(HAND, entry["hand"])["payments"] == entry["payments"]
    assert recorder.totals == evening["totals"]
    payments, totals, _ = replay(evening, evening["house_rules"], events(evening))
    assert totals == evening["totals"]
    assert payments == [entry["payments"] for entry in evening["events"] if "hand" in entry]


@pytest.mark.parametrize("name", EVENINGS)
def test_a_void_and_a_correction_on_either_side_are_scored_under_the_rules_at_their_place(name):
    evening = load(name)
    void, correct = evening["void"], evening["correct"]
    payments, totals, _ = replay(evening, evening["house_rules"], events(evening, void=void["number"]))
    assert (payments, totals) == (void["payments"], void["totals"])
    payments, totals, recorder = replay(evening, evening["house_rules"], events(
        evening, void=void["number"], correct=(correct["number"], correct["body"])))
    assert (payments, totals) == (correct["payments"], correct["totals"])
    assert recorder.table.house_rules == evening["put"]["house_rules"]  # the rules in force at the end


@pytest.mark.parametrize("name", EVENINGS)
def test_a_correction_from_the_start_reprices_every_hand_and_replaces_the_change(name):
    evening = load(name)
    put = evening["put"]
    payments, totals, recorder = replay(evening, put["house_rules"], events(evening, put=True))
    assert (payments, totals) == (put["payments"], put["totals"])
    assert recorder.table.house_rules == put["house_rules"]


def test_the_rules_in_force_already_are_no_change_and_a_bad_document_names_its_key():
    recorder = Recorder.start("taiwan", ["Amy", "Ben", "Cat", "Dan"], {"base": 100, "per_tai": 20}, {},
                              {"dealer_extra": "1+n"})
    with pytest.raises(InvalidRequest) as refused:
        recorder.record(RULES, {"dealer_extra": "1+n"})
    assert refused.value.field == "house_rules" and "already" in refused.value.message
    with pytest.raises(InvalidRequest) as refused:
        recorder.record(RULES, {"lei_cap": 20})
    assert refused.value.field == "house_rules.lei_cap"
    assert recorder.table.house_rules == {"dealer_extra": "1+n"} and recorder.hands_entered == 0


def test_a_flower_event_switched_off_from_a_hand_on_is_refused_there_and_kept_before():
    """taiwan_zz: 八仙過海 at hand 1 pays; 八仙過海 off from hand 2: the same hand is refused as switched off."""
    recorder = Recorder.start("taiwan_zz", ["Amy", "Ben", "Cat", "Dan"], {"base": 100, "per_tai": 20}, {})
    eight = {"winners": [{"player": "Cat", "tai": 8, "event": "eight_flowers"}], "by": "self_draw"}
    # paid as a self-draw: Ben and Dan 100 + 20×8 = 260, dealer Amy 100 + 20×(8 + 1) = 280
    assert recorder.record(HAND, eight)["payments"] == {"Amy": -280, "Ben": -260, "Cat": 800, "Dan": -260}
    recorder.record(RULES, {"off": ["eight_flowers"]})
    with pytest.raises(InvalidRequest) as refused:
        recorder.record(HAND, eight)
    assert "switched off at this table" in refused.value.message
