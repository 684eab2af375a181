"""House rules changed mid-evening over HTTP (API.md "House rules", RULES.md §8), on SQLite and PostgreSQL.

The evenings are the hand-worked ``fixtures/evening_rules_change_*.json`` (see
``tests/ledger/test_house_rules_changes.py``): ``POST …/house_rules`` at hand
3, then a void and a correction on both sides of it; the same evening
corrected with ``PUT`` instead (after a preview of the money); export and
import of the changed evening.
"""
import json
from pathlib import Path

import pytest

from api.http.db import get_db
from ledger import store
from tests.api.sessions.tables import Table, assert_matches_replay, assert_rejected, discard

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
EVENINGS = ["evening_rules_change_taiwan.json", "evening_rules_change_taiwan_zz.json",
            "evening_rules_change_shanghai.json"]
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class Evening:
    """A session started as the fixture says, driven through the API."""

    def __init__(self, client, evening):
        self.client = client
        body = {"name": evening["name"], "ruleset": evening["ruleset"], "players": evening["players"],
                "stakes": evening["stakes"], "options": evening["options"], "house_rules": evening["house_rules"]}
        created = client.post("/api/sessions", json=body)
        assert created.status_code == 201, created.get_json()
        self.id, token = created.get_json()["id"], created.get_json()["token"]
        self.path, self.headers = f"/api/sessions/{self.id}", {"Authorization": f"Bearer {token}"}

    def send(self, method, suffix, body=None, **headers):
        return self.client.open(self.path + suffix, method=method, json=body, headers={**self.headers, **headers})

    def get(self, suffix=""):
        response = self.send("GET", suffix)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def session(self):
        return self.get()

    def payments(self):
        return [hand["payments"] for hand in self.get("/hands")]


def play(client, evening):
    """Post the fixture's entries; each answer checked as it comes."""
    table = Evening(client, evening)
    for entry in evening["events"]:
        if "house_rules" in entry:
            revision = table.get()["revision"]
            response = table.send("POST", "/house_rules", entry["house_rules"])
            assert response.status_code == 201, response.get_json()
            assert response.headers["ETag"] == f'"{revision + 1}"'
            view = response.get_json()
            assert {key: view[key] for key in ("kind", "from_hand", "house_rules", "before", "void")} == {
                "kind": "house_rules", "from_hand": entry["from_hand"], "house_rules": entry["house_rules"],
                "before": evening["house_rules"], "void": False}
        else:
            response = table.send("POST", "/hands", entry["hand"])
            assert response.status_code == 201, response.get_json()
            assert response.get_json()["payments"] == entry["payments"]
    return table


@pytest.mark.parametrize("name", EVENINGS)
def test_a_change_from_the_next_hand_on_is_an_entry_and_the_hands_before_keep_their_rules(app, client, name):
    evening = load(name)
    table = play(client, evening)
    change = next(entry for entry in evening["events"] if "house_rules" in entry)
    session = table.get()
    assert session["totals"] == evening["totals"]
    assert session["house_rules"] == change["house_rules"]  # the rules in force now
    assert session["opening_house_rules"] == evening["house_rules"]
    assert [(c["from_hand"], c["house_rules"], c["void"]) for c in session["house_rules_changes"]] == [
        (3, change["house_rules"], False)]
    assert table.payments() == [entry["payments"] for entry in evening["events"] if "hand" in entry]
    assert [(line["action"], line["before"], line["after"]) for line in table.get("/audit")] == [
        ("house_rules_from", evening["house_rules"], change["house_rules"])]
    with app.app_context():  # the live event: the change's revision, kind house_rules, with the entry's view
        kinds = [(c.kind, (c.data["entry"] or {}).get("from_hand")) for c in
                 store.changes_after(get_db(), table.id, 0)]
    assert kinds[2] == ("house_rules", 3) and [kind for kind, _ in kinds].count("house_rules") == 1
    assert_matches_replay(app, table)


@pytest.mark.parametrize("name", EVENINGS)
def test_void_and_correction_on_both_sides_of_the_change_are_scored_under_the_rules_at_their_place(
        app, client, name):
    evening = load(name)
    table = play(client, evening)
    void, correct = evening["void"], evening["correct"]
    assert table.send("DELETE", f"/hands/{void['number']}").status_code == 200
    assert (table.payments(), table.get()["totals"]) == (void["payments"], void["totals"])
    response = table.send("PUT", f"/hands/{correct['number']}", correct["body"])
    assert response.status_code == 200, response.get_json()
    assert (table.payments(), table.get()["totals"]) == (correct["payments"], correct["totals"])
    assert table.get()["house_rules"] == evening["put"]["house_rules"]
    assert_matches_replay(app, table)


@pytest.mark.parametrize("name", EVENINGS)
def test_a_correction_from_the_start_is_previewed_then_reprices_every_hand_and_replaces_the_change(
        app, client, name):
    evening = load(name)
    table = play(client, evening)
    put = evening["put"]
    before = table.get(), table.get("/hands")
    preview = table.send("POST", "/house_rules/preview", put["house_rules"])
    assert preview.status_code == 200, preview.get_json()
    preview = preview.get_json()
    assert (table.get(), table.get("/hands")) == before  # a preview writes nothing
    played = [entry["payments"] for entry in evening["events"] if "hand" in entry]
    assert preview["totals_before"] == evening["totals"] and preview["totals_after"] == put["totals"]
    assert [(c["number"], c["before"]["payments"], c["after"]["payments"]) for c in preview["changes"]] == [
        (number, old, new) for number, (old, new) in enumerate(zip(played, put["payments"]), start=1) if old != new]
    assert [change["from_hand"] for change in preview["replaces"]] == [3]

    response = table.send("PUT", "/house_rules", put["house_rules"])
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert [(c["from_hand"], c["void"]) for c in answer["replaced"]] == [(3, True)]
    assert answer["totals"] == put["totals"] and table.payments() == put["payments"]
    assert answer["house_rules"] == answer["opening_house_rules"] == put["house_rules"]
    assert [(line["action"], line["before"], line["after"]) for line in table.get("/audit")] == [
        ("house_rules_from", evening["house_rules"], put["house_rules"]),
        ("house_rules", evening["house_rules"], put["house_rules"]),
        ("house_rules_replaced", put["house_rules"], put["house_rules"])]
    assert_matches_replay(app, table)


@pytest.mark.parametrize("name", EVENINGS)
def test_export_and_import_of_a_changed_evening_replay_identically(client, name):
    evening = load(name)
    table = play(client, evening)
    void, correct = evening["void"], evening["correct"]
    table.send("DELETE", f"/hands/{void['number']}")
    table.send("PUT", f"/hands/{correct['number']}", correct["body"])
    document = table.get("/export")
    assert document["house_rules"] == evening["house_rules"]  # what the evening started with
    assert [entry["kind"] for entry in document["entries"]].count("rules") == 1
    imported = client.post("/api/sessions/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    headers = {"Authorization": f"Bearer {copy['token']}"}
    original = table.get()
    for key in ("house_rules", "opening_house_rules", "totals", "state"):
        assert copy[key] == original[key], key
    assert [(c["from_hand"], c["house_rules"]) for c in copy["house_rules_changes"]] == [
        (c["from_hand"], c["house_rules"]) for c in original["house_rules_changes"]]
    hands = client.get(f"/api/sessions/{copy['id']}/hands", headers=headers).get_json()
    assert [(h["payments"], h["scores"], h["lines"]) for h in hands] == [
        (h["payments"], h["scores"], h["lines"]) for h in table.get("/hands")]
    again = client.get(f"/api/sessions/{copy['id']}/export", headers=headers).get_json()
    assert again["entries"] == document["entries"] and again["house_rules"] == document["house_rules"]


def test_each_hand_explains_its_dealer_extra_with_the_rules_it_was_played_under(client):
    """taiwan: hand 2 (dealer streak 1, 1 + 2n) 3 台 = 60; hand 3 (streak 2, 1 + n) 3 台 = 60, named 1+n."""
    table = play(client, load(EVENINGS[0]))
    hands = table.get("/hands")
    extras = [[reason for line in hand["lines"] for reason in line["reasons"] if reason["code"] == "dealer_extra"]
              for hand in hands[1:3]]
    assert [(r["tai"], r["amount"], r.get("formula")) for r in extras[0]] == [(3, 60, None)] * 3
    assert [(r["tai"], r["amount"], r.get("formula")) for r in extras[1]] == [(3, 60, "1+n")]


def test_a_change_is_refused_clearly_and_changes_nothing(client):
    evening = load(EVENINGS[0])
    table = Evening(client, evening)
    table.send("POST", "/hands", evening["events"][0]["hand"])
    before = table.get(), table.get("/hands")
    assert_rejected(table.send("POST", "/house_rules", {"lei_cap": 20}), "house_rules.lei_cap", "shanghai only")
    assert_rejected(table.send("POST", "/house_rules", {}), "house_rules", "already")
    assert_rejected(table.send("POST", "/house_rules", ["dealer_extra"]), "house_rules", "must be the house rules")
    assert_rejected(table.send("POST", "/house_rules/preview", {"off": ["nothing"]}), "house_rules.off[0]",
                    "unknown pattern")
    assert table.send("POST", "/house_rules", {"dealer_extra": "1+n"}, **{"If-Match": '"0"'}).status_code == 412
    assert (table.get(), table.get("/hands")) == before and table.get("/audit") == []


def test_a_retried_change_is_recorded_once(client):
    table = Evening(client, load(EVENINGS[0]))
    first = table.send("POST", "/house_rules", {"dealer_extra": "1+n"}, **{"Idempotency-Key": "k1"})
    again = table.send("POST", "/house_rules", {"dealer_extra": "1+n"}, **{"Idempotency-Key": "k1"})
    assert first.status_code == 201 and again.get_json() == first.get_json()
    assert len(table.get()["house_rules_changes"]) == 1


def test_a_group_evening_carries_the_rules_it_started_with_and_its_own_change(client):
    """The group's defaults start an evening with their house rules; a change from a hand on is the evening's
    own: the group's defaults stay as they were."""
    defaults = {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "house_rules": {"dealer_extra": "1+n"}}
    group = client.post("/api/groups", json={"name": "Friday club", "defaults": defaults}).get_json()
    admin = {"Authorization": f"Bearer {group['admin_token']}"}
    for name in PLAYERS:
        client.post(f"/api/groups/{group['id']}/members", json={"name": name}, headers=admin)
    created = client.post("/api/sessions", json={"name": "Friday", "group": group["id"], "players": PLAYERS},
                          headers=admin)
    assert created.status_code == 201, created.get_json()
    path = f"/api/sessions/{created.get_json()['id']}"
    change = client.post(f"{path}/house_rules", json={"dealer_extra": "none"}, headers=admin)
    assert change.status_code == 201, change.get_json()
    session = client.get(path, headers=admin).get_json()
    assert session["opening_house_rules"] == {"dealer_extra": "1+n"}
    assert session["house_rules"] == {"dealer_extra": "none"}
    assert client.get(f"/api/groups/{group['id']}", headers=admin).get_json()["defaults"] == defaults


def test_a_bad_document_is_422_before_a_stale_if_match_is_412(client):
    # The fuzzing sent a document with unknown keys and a stale If-Match: the body is wrong whatever the revision,
    # so it is refused as a bad body (422), as PUT does, and nothing is recorded.
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    stale = table.headers(**{"If-Match": '"1"'})
    response = client.post(f"{table.path}/house_rules", json={"no such key": 1}, headers=stale)
    assert response.status_code == 422
    assert "no such key" in response.get_json()["message"]
    assert client.get(table.path, headers=table.headers()).get_json()["revision"] == 2
