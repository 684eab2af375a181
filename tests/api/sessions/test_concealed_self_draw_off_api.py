"""門清一摸三 / 門清自摸 switched off from hand 3, over HTTP (RULES.md R3, R8, §8).

The evenings are the hand-worked ``fixtures/evening_concealed_self_draw_off_*.json``
(see ``tests/ledger/test_concealed_self_draw_off.py``): each hand's answer, the
hands' breakdowns, the totals and a replay from scratch agree with the fixture.
"""
import json
from pathlib import Path

import pytest

from tests.api.sessions.tables import Table, assert_matches_replay

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
EVENINGS = ["evening_concealed_self_draw_off_taiwan.json", "evening_concealed_self_draw_off_taiwan_zz.json"]
BONUS = {"concealed", "self_draw", "concealed_self_draw"}


@pytest.mark.parametrize("name", EVENINGS)
def test_a_concealed_self_draw_scores_concealed_and_self_draw_once_the_table_switches_the_bonus_off(
        app, client, name):
    evening = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    table = Table(client, ruleset=evening["ruleset"], players=evening["players"], stakes=evening["stakes"],
                  options=evening["options"], house_rules=evening["house_rules"])
    for entry in evening["events"]:
        if "house_rules" in entry:
            response = client.post(f"{table.path}/house_rules", json=entry["house_rules"], headers=table.headers())
            assert response.status_code == 201, response.get_json()
            assert response.get_json()["from_hand"] == entry["from_hand"]
        else:
            response = table.hand(entry["hand"])
            assert response.status_code == 201, response.get_json()
            assert response.get_json()["payments"] == entry["payments"], entry["why"]
    assert table.totals() == evening["totals"]
    listed = [{p["id"] for p in hand["scores"][0]["score"]["patterns"]} & BONUS
              for hand in table.hands() if hand["scores"][0]["score"]]
    assert listed == [{"concealed_self_draw"}, {"concealed", "self_draw"}, {"concealed"}, {"self_draw"},
                      {"concealed", "self_draw"}]
    assert_matches_replay(app, table)
