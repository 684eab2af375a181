"""Sessions driven over HTTP by the system tests: random valid hands, what was acknowledged, the checks after.

A ``Table`` remembers every hand the server acknowledged (number -> body and
payments). ``assert_consistent`` is the end-of-run check: hands numbered
1, 2, 3, … with no gap, exactly the acknowledged ones, stored as sent, and
totals, state and every payment equal to a replay from scratch.
"""
import random
import threading
from dataclasses import dataclass, field

from ledger.recorder import Event, Recorder
from tests.api.sessions.tables import OPEN, PLAYERS, session_body


@dataclass
class Table:
    """A session: id, token, rule set and what the server acknowledged."""

    id: str
    token: str
    ruleset: str
    acknowledged: dict = field(default_factory=dict)  # hand number -> (body, payments)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def path(self) -> str:
        return f"/api/sessions/{self.id}"

    def headers(self, **extra) -> dict:
        return {"Authorization": f"Bearer {self.token}", **extra}

    def acknowledge(self, body: dict, hand: dict) -> None:
        with self.lock:
            assert hand["number"] not in self.acknowledged, f"hand {hand['number']} acknowledged twice"
            self.acknowledged[hand["number"]] = (body, hand["payments"])


def random_hand(rng: random.Random, ruleset: str) -> dict:
    """A valid quick-entry hand among PLAYERS (nobody changes seats in these tests)."""
    if rng.random() < 0.1:
        hand = {"draw": True, "reason": rng.choice(["exhausted", "four_winds", "four_kongs"])}
    else:
        winner, discarder = rng.sample(PLAYERS, 2)
        value = {"tai": rng.randint(0, 12)} if ruleset != "shanghai" else {"points": rng.randint(1, 10)}
        hand = {"winners": [{"player": winner, **value}], "by": rng.choice(["discard", "self_draw"])}
        if hand["by"] == "discard":
            hand["discarder"] = discarder
        if ruleset == "shanghai" and rng.random() < 0.3:
            hand["three_mouth"] = [[winner, discarder]]
    if ruleset == "shanghai":
        hand["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    return hand


def stored_hands(server, table: Table) -> list[dict]:
    """The session's hands, which must be numbered 1, 2, 3, … with no gap."""
    status, hands = server.call("GET", f"{table.path}/hands", headers=table.headers())
    assert status == 200, hands
    assert [hand["number"] for hand in hands] == list(range(1, len(hands) + 1))
    return hands


def assert_acknowledged_kept(table: Table, hands: list[dict]) -> None:
    """Every acknowledged hand is stored under its number with the body sent and the payments returned."""
    for number, (body, payments) in table.acknowledged.items():
        assert number <= len(hands), f"acknowledged hand {number} is missing"
        assert (hands[number - 1]["body"], hands[number - 1]["payments"]) == (body, payments), number


def assert_replays(server, table: Table, hands: list[dict]) -> None:
    """The session's totals and state, and every hand's payments, equal a replay from scratch."""
    status, session = server.call("GET", table.path, headers=table.headers())
    assert status == 200, session
    recorder, results = Recorder.replay(table.ruleset, session["players"], session["stakes"], session["options"],
                                        [Event("hand", hand["body"]) for hand in hands])
    assert session["totals"] == recorder.totals
    assert session["state"] == {**recorder.state.to_dict(), **OPEN}
    assert [hand["payments"] for hand in hands] == [result["payments"] for result in results]
    assert sum(session["totals"].values()) == 0


def assert_consistent(server, table: Table) -> int:
    """Exactly the acknowledged hands, numbered 1..n, stored as sent, equal to a replay; returns n."""
    hands = stored_hands(server, table)
    assert sorted(table.acknowledged) == [hand["number"] for hand in hands]
    assert_acknowledged_kept(table, hands)
    assert_replays(server, table, hands)
    return len(hands)


def create_table(server, ruleset: str) -> Table:
    """A new session of ``ruleset`` among PLAYERS."""
    status, created = server.call("POST", "/api/sessions", session_body(ruleset))
    assert status == 201, created
    return Table(created["id"], created["token"], ruleset)
