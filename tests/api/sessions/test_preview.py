"""Previews: the hand a body would be, and what a void or correction would change; nothing is written.

Taiwanese stakes 底 100, 台 20; Amy deals first. A payer pays 100 + 20 × (台 +
dealer extra), the extra 1 + 2n on a payment between the dealer and another
player (RULES.md §6).
"""
from tests.api.sessions.tables import Table, discard, self_draw


def preview_hand(table, body):
    return table.client.post(f"{table.path}/hands/preview", json=body, headers=table.headers())


def preview_change(table, number, change):
    return table.client.post(f"{table.path}/hands/{number}/preview", json=change, headers=table.headers())


def test_a_hand_preview_shows_the_payments_and_totals_without_recording(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    before = table.snapshot()
    response = preview_hand(table, self_draw("Ben", 2))
    assert response.status_code == 200, response.get_json()
    preview = response.get_json()
    # Ben deals now (streak 0) and self-draws 2 台: each pays 100 + 20 × (2 + 1) = 160.
    assert (preview["number"], preview["dealer"], preview["streak"]) == (2, "Ben", 0)
    assert preview["payments"] == {"Amy": -160, "Ben": 480, "Cat": -160, "Dan": -160}
    assert [(line["payer"], line["amount"]) for line in preview["lines"]] == [("Amy", 160), ("Cat", 160),
                                                                              ("Dan", 160)]
    # Hand 1 left Ben +160, Cat -160.
    assert preview["totals"] == {"Amy": -160, "Ben": 640, "Cat": -320, "Dan": -160}
    assert preview["state"]["streak"] == 1
    assert table.snapshot() == before


def test_a_refused_hand_preview_is_a_422_naming_the_field(client):
    table = Table(client)
    response = preview_hand(table, {"winners": [{"player": "Zed", "tai": 1}], "by": "self_draw"})
    assert response.status_code == 422
    assert response.get_json()["field"] == "winners[0].player"
    assert table.hands() == []


def test_a_void_preview_lists_the_later_hands_that_change(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3), self_draw("Ben", 2), discard("Cat", "Dan", 1))
    before = table.snapshot()
    response = preview_change(table, 1, {"void": True})
    assert response.status_code == 200, response.get_json()
    preview = response.get_json()
    assert (preview["number"], preview["action"]) == (1, "void")
    # Now: 1. Cat pays Ben 160, Ben deals. 2. Dealer Ben self-draws 2: 160 from each, streak 1 after.
    # 3. Dan pays Cat 100 + 20 = 120 (dealer Ben not part of it).
    # Without hand 1 Amy still deals hand 2: Ben's self-draw is then 100 + 40 = 140 from Cat and Dan and
    # 100 + 20 × (2 + 1) = 160 from dealer Amy; Ben takes the deal with streak 0 for hand 3, whose
    # payment stays the same.
    assert preview["changes"] == [
        {"number": 1,
         "before": {"void": False, "dealer": "Amy", "streak": 0, "values": [3],
                    "payments": {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}},
         "after": {"void": True, "dealer": "Amy", "streak": 0, "values": [], "payments": {}}},
        {"number": 2,
         "before": {"void": False, "dealer": "Ben", "streak": 0, "values": [2],
                    "payments": {"Amy": -160, "Ben": 480, "Cat": -160, "Dan": -160}},
         "after": {"void": False, "dealer": "Amy", "streak": 0, "values": [2],
                   "payments": {"Amy": -160, "Ben": 440, "Cat": -140, "Dan": -140}}},
        {"number": 3,
         "before": {"void": False, "dealer": "Ben", "streak": 1, "values": [1],
                    "payments": {"Amy": 0, "Ben": 0, "Cat": 120, "Dan": -120}},
         "after": {"void": False, "dealer": "Ben", "streak": 0, "values": [1],
                   "payments": {"Amy": 0, "Ben": 0, "Cat": 120, "Dan": -120}}},
    ]
    assert preview["totals_before"] == {"Amy": -160, "Ben": 640, "Cat": -200, "Dan": -280}
    assert preview["totals_after"] == {"Amy": -160, "Ben": 440, "Cat": -20, "Dan": -260}
    assert table.snapshot() == before
    assert table.audit() == []


def test_a_correction_preview_shows_the_hand_itself_first(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3), discard("Cat", "Dan", 1))
    response = preview_change(table, 2, {"body": discard("Cat", "Dan", 2)})
    assert response.status_code == 200, response.get_json()
    preview = response.get_json()
    # Hand 2: dealer Ben is not part of Dan -> Cat: 100 + 20 × 2 = 140 instead of 120. Nothing else moves.
    assert preview["action"] == "correct"
    assert [change["number"] for change in preview["changes"]] == [2]
    assert preview["changes"][0]["after"]["payments"] == {"Amy": 0, "Ben": 0, "Cat": 140, "Dan": -140}
    assert preview["totals_after"] == {"Amy": 0, "Ben": 160, "Cat": -20, "Dan": -140}


def test_change_previews_refuse_unclear_requests_and_unknown_hands(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    both = preview_change(table, 1, {"void": True, "body": discard("Ben", "Cat", 1)})
    assert both.status_code == 422
    assert "either" in both.get_json()["message"]
    assert preview_change(table, 1, {}).status_code == 422
    missing = preview_change(table, 9, {"void": True})
    assert missing.status_code == 404
    assert missing.get_json()["message"] == "No hand 9 in this session."


def test_previews_honour_the_house_rules(client):
    table = Table(client, house_rules={"dealer_extra": "1+n", "false_win": {"amount": 250}})
    table.hands_ok(self_draw("Amy", 1))  # dealer Amy: 100 + 20 × (1 + 1) = 140 from each; streak 1
    before = table.snapshot()
    preview = preview_hand(table, discard("Amy", "Cat", 2)).get_json()
    # Amy on streak 1 wins 2 台 on Cat's discard: extra 1 + 1 = 2 under the house rule (1 + 2 × 1 = 3 without),
    # 100 + 20 × (2 + 2) = 180.
    assert preview["payments"] == {"Amy": 180, "Ben": 0, "Cat": -180, "Dan": 0}
    assert [(line["payer"], line["amount"]) for line in preview["lines"]] == [("Cat", 180)]
    false_win = preview_hand(table, {"false_win": "Dan"}).get_json()
    # Dan's false win: the house penalty, 250 to each of the others; the totals after hand 1 were
    # Amy +420 and -140 for each of the others.
    assert false_win["payments"] == {"Amy": 250, "Ben": 250, "Cat": 250, "Dan": -750}
    assert [(line["payer"], line["payee"], line["amount"]) for line in false_win["lines"]] == [
        ("Dan", "Amy", 250), ("Dan", "Ben", 250), ("Dan", "Cat", 250)]
    assert false_win["totals"] == {"Amy": 670, "Ben": 110, "Cat": 110, "Dan": -890}
    # The preview of voiding hand 1 replays under the house rules too: nothing else to change, Amy's 420 gone.
    change = preview_change(table, 1, {"void": True}).get_json()
    assert change["totals_after"] == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}
    assert table.snapshot() == before
